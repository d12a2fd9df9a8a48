/** Terminal rendering of a corpora report: one table per corpus, a row per retriever and split. */
import { table } from '../locomo/report.js';
import type { CorporaReport } from './run.js';

export function renderCorpora(r: CorporaReport): string {
  const lines: string[] = [];
  for (const c of r.corpora) {
    lines.push('', `${c.name} — ${c.shape}: ${c.memories} memories, ${c.questions.all} questions (tune ${c.questions.tune}, eval ${c.questions.eval})${c.reused ? ', cached DB' : ''}`);
    // A split without questions (a tuning-only corpus's eval half, or the half a --split run left out) has no recall to show.
    const asked = (split: string) => c.questions[split as keyof typeof c.questions] > 0;
    const rows = Object.entries(c.recall).flatMap(([name, bySplit]) =>
      Object.entries(bySplit)
        .filter(([split]) => asked(split))
        .map(([split, byK]) => ({
          retriever: name,
          split,
          ...Object.fromEntries(r.ks.map((k) => [`R@${k}`, byK[String(k)]!.toFixed(3)])),
          'ms/q': split === 'all' ? String(c.msPerQuery[name]) : '',
        })),
    );
    lines.push(table(rows));
    lines.push(`getContext top_k 10 under a 2,000-token budget: ${c.budgeted.items} items on average (${c.budgeted.minItems} at least), R@10 ${c.budgeted.recall.toFixed(3)}`);
  }
  lines.push('', `embedding cache ${r.embeddingCache.hits} hits / ${r.embeddingCache.misses} misses`);
  return lines.join('\n');
}
