/**
 * `npx tsx bench/locomo/gap.ts --data locomo10.json --cache-dir DIR [--k 10] [--floor JSON]`: on the dev conversations,
 * each question where getContext ranks the evidence otherwise than hybrid search, with the step (`explain`) that
 * dropped evidence getContext lost. Opens the database a full (ten-conversation) `bench:locomo` run cached.
 */
import { Command } from 'commander';
import { DEV_SPLIT, loadLocomo } from './dataset.js';
import { openCachedRun } from './cached.js';
import { distinct } from './retrievers.js';

const o = new Command()
  .requiredOption('--data <file>', 'locomo10.json')
  .option('--cache-dir <dir>', 'cache', '.engram-cache/locomo')
  .option('--k <n>', 'cut-off', '10')
  .option('--floor <json>', 'relevance_floor settings to try, as JSON', '{}')
  .parse(process.argv)
  .opts<{ data: string; cacheDir: string; k: string; floor: string }>();
const k = Number(o.k);
const conversations = loadLocomo(o.data);
const { engine, clock, close } = await openCachedRun(o.data, o.cacheDir, conversations);
let sumH = 0;
let sumC = 0;
let n = 0;
const reasons = new Map<string, number>();
for (const c of conversations.filter((x) => DEV_SPLIT.includes(x.id))) {
  for (const q of c.questions) {
    if (q.evidence.length === 0) continue;
    clock.at = q.askedAt;
    const hits = await engine.memory.search({ query: q.question, k: 20, mode: 'hybrid', tenant: c.id, kinds: ['event'], rerank: true });
    const hybrid = distinct(hits.map((h) => (typeof h.doc.metadata.dia_id === 'string' ? h.doc.metadata.dia_id : undefined)));
    const ctx = await engine.memory.getContext(q.question, {
      tenant: c.id,
      episodic_window: { mode: 'none' },
      semantic_retrieval: { top_k: 20, kinds: ['event'], relevance_floor: JSON.parse(o.floor) as Record<string, number> },
      merge_policy: { token_budget: 4000 },
      explain: true,
    });
    clock.at = undefined;
    const context = distinct(ctx.items.filter((i) => i.kind === 'event').map((i) => engine.diaOf.get(i.id)));
    const at = (list: string[], e: string) => list.indexOf(e) + 1;
    const rh = q.evidence.filter((e) => hybrid.slice(0, k).includes(e)).length / q.evidence.length;
    const rc = q.evidence.filter((e) => context.slice(0, k).includes(e)).length / q.evidence.length;
    sumH += rh;
    sumC += rc;
    n++;
    if (rh === rc) continue;
    const idOfDia = new Map([...engine.diaOf].filter(([id]) => id.length > 0).map(([id, dia]) => [dia, id]));
    const why = q.evidence.map((e) => {
      const d = ctx.droppedItems?.find((x) => x.id === idOfDia.get(e));
      if (rh > rc && d) reasons.set(d.reason, (reasons.get(d.reason) ?? 0) + 1);
      return `${e}: hybrid ${at(hybrid, e) || '-'} ctx ${at(context, e) || '-'}${d ? ` (${d.reason})` : ''}`;
    });
    console.log(`${c.id} cat${q.category} R@${k} ${rh.toFixed(2)}/${rc.toFixed(2)} items ${context.length}${ctx.items.some((i) => i.scores.weak) ? ' weak' : ''} "${q.question}"\n   ${why.join('; ')}`);
  }
}
console.log(`dev: ${n} questions, R@${k} hybrid ${(sumH / n).toFixed(4)} getContext ${(sumC / n).toFixed(4)}; drops behind losses: ${JSON.stringify(Object.fromEntries(reasons))}`);
await close();
