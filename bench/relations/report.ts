/** Terminal rendering of a relation QA report. */
import { formatShare as pct } from '../lib/eval-suite.js';
import { table } from '../locomo/report.js';
import type { RelationsReport } from './run.js';

export function renderRelations(r: RelationsReport, opts: { verbose?: boolean } = {}): string {
  const lines: string[] = [];
  lines.push(`${r.conversations} conversations, ${r.questions} questions, ${r.entities} entities, ${r.seconds} s`);
  lines.push(r.asOf === 'unsupported' ? `as_of unsupported (${r.asOfError ?? 'rejected'}): as-of questions were asked without it` : `as_of ${r.asOf}`);
  lines.push('');
  const rows = [
    { category: 'all', 'top-3': pct(r.top3), 'final hop top-3': pct(r.finalHopTop3), 'all hops top-5': pct(r.allHopsTop5) },
    ...Object.entries(r.byCategory).map(([c, t]) => ({ category: c, 'top-3': pct(t.top3), 'final hop top-3': pct(t.finalHopTop3), 'all hops top-5': pct(t.allHopsTop5) })),
  ];
  lines.push(table(rows));
  const errors = r.results.filter((x) => x.error);
  if (errors.length > 0) lines.push('', `getContext failed for ${errors.length} questions, e.g. ${errors[0]!.conversation} ${errors[0]!.id}: ${errors[0]!.error}`);
  if (opts.verbose) {
    lines.push('', 'misses (hop ranks; the first three items):');
    for (const x of r.results.filter((q) => !q.top3)) {
      lines.push(`  ${x.conversation} ${x.id} [${x.category}] ${x.question} — ranks ${x.hopRanks.map((h) => h ?? '-').join(',')}`);
      for (const t of x.top) lines.push(`      · ${t.replace(/\s+/g, ' ').slice(0, 140)}`);
    }
  }
  return lines.join('\n');
}
