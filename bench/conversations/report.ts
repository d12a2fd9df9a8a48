/** Terminal rendering of a conversation-set report. */
import { formatShare as pct } from '../lib/eval-suite.js';
import { table } from '../locomo/report.js';
import type { ConversationsReport } from './run.js';

export function renderConversations(r: ConversationsReport, opts: { verbose?: boolean } = {}): string {
  const lines: string[] = [];
  lines.push(`${r.conversations} conversations, ${r.checkpoints} checkpoints, scope ${r.scope === 'session' ? '{ user_id, session_id }' : r.scope === 'user' ? '{ user_id } (diagnostic)' : 'none (diagnostic)'}, ${r.seconds} s`);
  lines.push('');
  const rows = [
    { domain: 'all', 'expected present': pct(r.present), 'forbidden absent': pct(r.absent) },
    ...Object.entries(r.byDomain).map(([d, t]) => ({ domain: d, 'expected present': pct(t.present), 'forbidden absent': pct(t.absent) })),
  ];
  lines.push(table(rows));
  lines.push('');
  lines.push(table(Object.entries(r.absentByReason).map(([reason, s]) => ({ 'forbidden by reason': reason, absent: pct(s) }))));
  lines.push('');
  lines.push(`other users' records in a context (by id): ${r.foreignItems} items in ${r.checkpointsWithForeignItems} checkpoints`);
  const errors = r.results.filter((x) => x.error);
  if (errors.length > 0) lines.push(`getContext failed at ${errors.length} checkpoints, e.g. ${errors[0]!.conversation} ${errors[0]!.checkpoint}: ${errors[0]!.error}`);
  if (opts.verbose) {
    lines.push('', 'misses:');
    for (const x of r.results) {
      const missing = x.required.filter((q) => !q.ok).map((q) => `missing "${q.label}"`);
      const found = x.forbidden.filter((f) => !f.ok).map((f) => `${f.reason} "${f.label}" in ${f.itemId}`);
      const foreign = x.foreignItems.map((f) => `record of ${f.owner}: ${f.id}`);
      const all = [...missing, ...found, ...foreign];
      if (all.length > 0) lines.push(`  ${x.conversation} ${x.checkpoint} (${x.userId}/${x.sessionId}, ${x.items} items): ${all.join('; ')}`);
    }
  }
  return lines.join('\n');
}
