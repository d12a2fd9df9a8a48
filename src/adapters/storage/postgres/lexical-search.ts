/**
 * Okapi BM25 over the tenant's docs (higher = better), as FTS5 scores for the SQLite adapter:
 * idf = ln(1 + (N − df + ½)/(df + ½)), k1 = 1.2, b = 0.75, with N and the average length from the tenant's
 * state row, each lexeme's df counted over the tenant (GIN), and term frequency from the tsvector's
 * positions. The query's words are stemmed by PostgreSQL once per process (cached), so the search
 * statement carries its lexemes as bound constants and the planner can use the GIN index for them.
 */
import { Lru } from '../../../core/lru.js';
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import type { PgDb } from './db.js';
import { docConditions } from './doc-store.js';
import { queryWords } from './fts.js';
import { num } from '../sql/rows.js';
import { sql } from './sql.js';

const K1 = 1.2;
const B = 0.75;

/** Lexemes per query word (the stemmer is deterministic, so a process asks once per word). */
export class Stemmer {
  private readonly cache = new Lru<string, string[]>(20_000);

  constructor(private readonly db: PgDb) {}

  async lexemes(words: readonly string[]): Promise<string[]> {
    const missing = words.filter((w) => this.cache.get(w) === undefined);
    if (missing.length > 0) {
      const rows = await this.db.rows<{ w: string; lx: string[] }>(
        sql(`SELECT u.w, ARRAY(SELECT t.lexeme FROM unnest(to_tsvector('engram.engram_text', u.w)) AS t) AS lx FROM unnest(?::text[]) AS u(w)`, missing),
      );
      for (const r of rows) this.cache.set(r.w, r.lx);
    }
    return [...new Set(words.flatMap((w) => this.cache.get(w) ?? []))];
  }
}

/** A tsquery literal for one lexeme (lexemes come from words, but quote defensively anyway). */
const quoted = (lexeme: string): string => `'${lexeme.replace(/['\\]/g, (c) => `\\${c}`)}'`;

/**
 * One pass over the tenant's docs matching any lexeme (GIN): their stored term frequencies give each
 * lexeme's df over the tenant and, for the docs that also pass scope, kinds, expiry and filter, the score.
 */
export async function lexicalSearch(db: PgDb, stemmer: Stemmer, q: DocQuery & { text: string }): Promise<DocHit[]> {
  return (await lexicalSearchWithTermBest(db, stemmer, q)).hits;
}

/**
 * The hits, and each lexeme's best single-term score among the docs passing the conditions (a window
 * maximum over the same rows, computed before the LIMIT), for Storage.lexicalSearchWithTermBest.
 */
export async function lexicalSearchWithTermBest(db: PgDb, stemmer: Stemmer, q: DocQuery & { text: string }): Promise<{ hits: DocHit[]; termBest: number[] }> {
  const words = queryWords(q.text);
  if (words === undefined) return { hits: [], termBest: [] };
  const lexemes = await stemmer.lexemes(words.split(' '));
  if (lexemes.length === 0 || q.k <= 0) return { hits: [], termBest: lexemes.map(() => 0) };
  const where = docConditions(q);
  const tf = 'COALESCE((m.tf ->> ?::text)::float8, 0)';
  const df = lexemes.map((_, i) => `count(*) FILTER (WHERE m.tf ->> ?::text IS NOT NULL)::float8 AS n${i}`).join(', ');
  const terms = lexemes
    .map((_, i) => `ln(1 + (stats.n - df.n${i} + 0.5) / (df.n${i} + 0.5)) * ${tf} * ${K1 + 1} / (${tf} + ${K1} * (${1 - B} + ${B} * m.doc_len / stats.avgdl)) AS s${i}`)
    .join(', ');
  const score = lexemes.map((_, i) => `t.s${i}`).join(' + ');
  const best = lexemes.map((_, i) => `max(t.s${i}) OVER () AS b${i}`).join(', ');
  const rows = await db.rows<{ docId: string | number; score: number } & Record<string, number>>({
    text: `WITH stats AS MATERIALIZED (
        SELECT GREATEST(s.doc_count, 1)::float8 AS n, GREATEST(s.doc_len::float8 / GREATEST(s.doc_count, 1), 1) AS avgdl
        FROM engram.tenant_state s WHERE s.tenant = ?
      ), matched AS MATERIALIZED (
        SELECT d.doc_id, d.doc_len, d.tf, (${where.text}) AS ok FROM engram.docs d WHERE d.tenant = ? AND d.tsv @@ ?::tsquery
      ), df AS MATERIALIZED (
        -- One row, computed once: left inlinable, the planner re-ran this aggregate for every matched row
        -- (quadratic in the number of matches).
        SELECT ${df} FROM matched m
      )
      SELECT t.doc_id AS "docId", ${score} AS score, ${best}
      FROM (SELECT m.doc_id, ${terms} FROM matched m CROSS JOIN df CROSS JOIN stats WHERE m.ok) t
      ORDER BY score DESC, t.doc_id
      LIMIT ?`,
    params: [
      q.tenant,
      ...where.params,
      q.tenant,
      lexemes.map(quoted).join(' | '),
      ...lexemes,
      ...lexemes.flatMap((l) => [l, l]),
      Math.floor(q.k),
    ],
  });
  return {
    hits: rows.map((r) => ({ docId: num(r.docId), score: r.score })),
    termBest: lexemes.map((_, i) => Math.max(0, Number(rows[0]?.[`b${i}`] ?? 0))),
  };
}
