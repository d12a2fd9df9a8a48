import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, queryTerms } from './analyzer.js';
import { Bm25Index, SKIP_COMMON_FROM } from './bm25-index.js';

const VOCAB = ['deploy', 'deployment', 'deployed', 'rollback', 'pool', 'pools', 'connection', 'redis', 'the', 'a', 'of', 'timeout', 'café', 'ERR_PG_53300', 'v2.4.1', 'Straße', 'running', 'runs'];

/** SQLite FTS5 with the tokenizer the index imitates, as the reference scorer. */
function ftsReference(docs: readonly string[]) {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')`);
  const insert = db.prepare('INSERT INTO t (rowid, text) VALUES (?, ?)');
  docs.forEach((d, i) => insert.run(i + 1, d));
  const q = db.prepare('SELECT rowid AS id, -bm25(t) AS score FROM t WHERE t MATCH ? ORDER BY score DESC, rowid LIMIT ?');
  return (text: string, k: number) => {
    // One phrase per distinct stem ("deployed deploy" is one term, as in queryTerms).
    const byStem = new Map((text.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).map((w) => [analyze(w).join(' '), w]));
    const match = [...byStem.values()].map((w) => `"${w}"`).join(' OR ');
    return match ? (q.all(match, k) as { id: number; score: number }[]) : [];
  };
}

describe('analyze', () => {
  it('folds case and diacritics, splits on punctuation and stems English words like FTS5 porter', () => {
    expect(analyze('Deployments were ROLLED back; café Straße!')).toEqual(['deploy', 'were', 'roll', 'back', 'cafe', 'straße']);
    expect(analyze('ERR_PG_53300 at v2.4.1')).toEqual(['err', 'pg', '53300', 'at', 'v2', '4', '1']);
    expect(queryTerms('the pool, the POOLS and the pool')).toEqual(['the', 'pool', 'and']);
  });
});

describe('Bm25Index', () => {
  it('scores exactly as SQLite FTS5 bm25() on random corpora and queries', () => {
    const doc = fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 12 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 40 }), fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 4 }), (docs, q) => {
        const index = new Bm25Index();
        docs.forEach((d, i) => index.add(i + 1, d));
        const text = q.join(' ');
        const all = ftsReference(docs)(text, docs.length);
        const got = index.search(queryTerms(text), 10);
        // Same score sequence as FTS5's top 10, and every returned doc has FTS5's score for that doc. Docs whose
        // scores tie (to float rounding) may come in either order, and either may take the last place.
        expect(got).toHaveLength(Math.min(10, all.length));
        const reference = new Map(all.map((h) => [h.id, h.score]));
        got.forEach((h, i) => {
          expect(h.score).toBeCloseTo(all[i]!.score, 9);
          expect(reference.get(h.id)).toBeCloseTo(h.score, 9);
        });
        expect(new Set(got.map((h) => h.id)).size).toBe(got.length);
      }),
      { numRuns: 60 },
    );
  });

  it('in a large index, skips terms in half of the docs or more: they make no hit and report the floor score', () => {
    const index = new Bm25Index();
    for (let i = 10; i < 10 + SKIP_COMMON_FROM; i++) index.add(i, `the filler ${i}`);
    expect(index.search(['the'], 1)).toEqual([]);
    ['the pool', 'the deploy', 'the cache', 'a redis'].forEach((d, i) => index.add(i + 1, d));
    const { hits, termBest } = index.searchWithTermBest(queryTerms('the redis'), 10);
    expect(hits.map((h) => h.id)).toEqual([4]);
    expect(termBest[0]).toBe(1e-6);
    expect(termBest[1]).toBeGreaterThan(0.1);
  });

  it('reports each term\'s best single-term score among accepted docs, as one-term searches would', () => {
    const doc = fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 10 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 30 }), fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 5 }), fc.integer({ min: 2, max: 4 }), (docs, q, mod) => {
        const index = new Bm25Index();
        docs.forEach((d, i) => index.add(i + 1, d));
        const accept = (id: number) => id % mod !== 0;
        const terms = queryTerms(q.join(' '));
        const { hits, termBest } = index.searchWithTermBest(terms, 5, accept);
        expect(hits).toEqual(index.search(terms, 5, accept));
        expect(hits.every((h) => accept(h.id))).toBe(true);
        terms.forEach((t, i) => expect(termBest[i]).toBeCloseTo(index.search([t], 1, accept)[0]?.score ?? 0, 12));
      }),
      { numRuns: 60 },
    );
  });

  it('forgets removed docs everywhere: hits, document frequencies and averages, also after compaction', () => {
    const index = new Bm25Index();
    const kept = ['redis pool exhausted', 'deploy rolled back', 'the pool of connections'];
    kept.forEach((d, i) => index.add(i + 1, d));
    const reference = index.search(queryTerms('pool deploy'), 10);
    // Add and remove enough docs to trigger compaction; the survivors must score as before.
    for (let i = 100; i < 3100; i++) index.add(i, `pool pool deploy noise ${i}`);
    expect(index.search(queryTerms('pool'), 3).every((h) => h.id >= 100)).toBe(true);
    for (let i = 100; i < 3100; i++) index.remove(i);
    expect(index.size).toBe(3);
    expect(index.search(queryTerms('pool deploy'), 10)).toEqual(reference);
    expect(index.search(queryTerms('noise'), 10)).toEqual([]);
  });

  it('replaces a doc re-added under the same id and asks accept only about contenders', () => {
    const index = new Bm25Index();
    for (let i = 100; i < 300; i++) index.add(i, `filler ${i}`); // keeps 'alpha' a rare term
    index.add(1, 'alpha beta');
    index.add(2, 'alpha');
    index.add(1, 'gamma');
    expect(index.search(['alpha'], 10).map((h) => h.id)).toEqual([2]);
    const asked: number[] = [];
    for (let i = 10; i < 60; i++) index.add(i, i % 2 ? 'alpha alpha alpha' : 'alpha filler words to make it long');
    const hits = index.search(['alpha'], 3, (id) => {
      asked.push(id);
      return id !== 11;
    });
    expect(hits.map((h) => h.id)).not.toContain(11);
    expect(hits).toHaveLength(3);
    expect(asked.length).toBeLessThan(52);
  });
});

describe('Bm25Index.fromState', () => {
  const docOf = (i: number) => Array.from({ length: 3 + (i % 5) }, (_, j) => VOCAB[(i * 7 + j * 3) % VOCAB.length]!).join(' ');
  const queries = ['deploy timeout', 'redis pool connection', 'the café', 'rollback runs', 'Straße ERR_PG_53300'];

  it('answers as the index it was saved from, and keeps answering alike through later adds and removals', () => {
    const a = new Bm25Index();
    for (let i = 0; i < 3000; i++) a.add(i + 1, docOf(i));
    const b = Bm25Index.fromState(a.exportState());
    const same = () => {
      for (const q of queries) expect(b.searchWithTermBest(queryTerms(q), 20)).toEqual(a.searchWithTermBest(queryTerms(q), 20));
    };
    same();
    // Removing saved docs, replacing saved docs, adding new ones (past the saved slots) and removing those.
    for (const ix of [a, b]) {
      for (let i = 1; i <= 3000; i += 4) ix.remove(i);
      for (let i = 2; i <= 600; i += 4) ix.add(i, `${docOf(i + 11)} deploy`);
      for (let i = 5000; i < 5300; i++) ix.add(i, docOf(i));
      for (let i = 5000; i < 5300; i += 3) ix.remove(i);
    }
    expect(b.size).toBe(a.size);
    same();
    // Enough removals to compact the restored index: its saved docs are rebuilt into fresh postings.
    for (const ix of [a, b]) for (let i = 3; i <= 3000; i += 4) ix.remove(i);
    same();
    expect(Bm25Index.fromState(b.exportState()).searchWithTermBest(queryTerms('deploy'), 50)).toEqual(a.searchWithTermBest(queryTerms('deploy'), 50));
  });

  it('saves what it restored unchanged, and only live docs and the terms they hold', () => {
    const a = new Bm25Index();
    for (let i = 0; i < 50; i++) a.add(100 - i, docOf(i));
    a.add(7, 'zebra only here');
    a.remove(7);
    const st = a.exportState();
    expect(st.terms).not.toContain('zebra');
    expect(st.ids).toHaveLength(50);
    expect(Bm25Index.fromState(st).exportState()).toEqual(st);
  });

  it('refuses a state whose arrays disagree, whose postings name no doc, or with an id twice', () => {
    const a = new Bm25Index();
    a.add(1, 'deploy redis');
    a.add(2, 'redis pool');
    const st = a.exportState();
    expect(() => Bm25Index.fromState({ ...st, slots: st.slots.map((s) => (s === 1 ? 5 : s)) })).toThrow(/names no doc/);
    expect(() => Bm25Index.fromState({ ...st, lengths: new Float64Array(3) })).toThrow(/disagree/);
    expect(() => Bm25Index.fromState({ ...st, start: Int32Array.from(st.start).reverse() })).toThrow(/disagree|order/);
    expect(() => Bm25Index.fromState({ ...st, ids: Float64Array.of(2, 2) })).toThrow(/appears twice/);
  });
});
