/** Terminal rendering of a LoCoMo report. */
import type { LocomoReport } from './run.js';

const GROUPS = ['all', 'dev', 'heldout', 'cat1', 'cat2', 'cat3', 'cat4', 'cat5'];

export function renderLocomo(r: LocomoReport): string {
  const names = Object.keys(r.retrievers);
  const lines: string[] = [];
  if (r.conversations > 0) lines.push(...renderLocomoTables(r, names));
  const cutoffs = Object.keys(r.retrievers[names[0] ?? '']?.paraphrase.recall ?? {});
  const n = r.retrievers[names[0] ?? '']?.paraphrase.n ?? 0;
  lines.push('', `paraphrase dev set (${r.paraphraseSplit === 'all' ? 'all' : `${r.paraphraseSplit} half`}, ${n} queries), each R@k asked for k; mean ms per query`);
  lines.push(
    table(
      names.map((name) => {
        const p = r.retrievers[name]!.paraphrase;
        return { retriever: name, ...Object.fromEntries(cutoffs.map((k) => [`R@${k}`, (p.recall[k] ?? 0).toFixed(3)])), 'ms/query': String(r.retrievers[name]!.queryMs) };
      }),
    ),
  );
  lines.push('', `ingest: Engram ${r.ingest.engramReused ? 'reused cached DB' : `${String(r.ingest.engramSeconds)} s`}; Mem0 ${r.ingest.mem0Seconds === null ? 'not run' : `${r.ingest.mem0Seconds} s`}; embedding cache ${r.embeddingCache.hits} hits / ${r.embeddingCache.misses} misses`);
  if (r.mem0Note) lines.push(r.mem0Note);
  return lines.join('\n');
}

function renderLocomoTables(r: LocomoReport, names: string[]): string[] {
  const lines: string[] = [];
  lines.push(`LoCoMo ${r.conversations} conversations, ${r.questions} questions; dev split ${r.devSplit.join(', ') || '(none)'}; ${r.skippedEvidence.count} evidence ids skipped`);
  for (const k of r.ks) {
    lines.push('', `evidence recall@${k} (hit@${k}) [session recall@${k}] — categories 1–4 unless cat5`);
    const rows = names.map((n) => {
      const row: Record<string, string> = { retriever: n };
      for (const g of GROUPS) {
        const t = r.retrievers[n]!.byK[g]?.[String(k)];
        row[g] = t ? `${t.recall.toFixed(3)} (${t.hit.toFixed(2)})${g === 'all' ? ` [${t.sessionRecall.toFixed(2)}]` : ''}` : '-';
      }
      return row;
    });
    lines.push(table(rows));
  }
  return lines;
}

export function table(rows: Record<string, string>[]): string {
  if (rows.length === 0) return '';
  const cols = Object.keys(rows[0]!);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(width[i]!) : c.padStart(width[i]!))).join('  ');
  return [line(cols), line(width.map((w) => '-'.repeat(w))), ...rows.map((row) => line(cols.map((c) => row[c] ?? '')))].join('\n');
}
