/**
 * Whether getContext's items depend on `semantic_retrieval.top_k` the way search's first hits once depended on k:
 * over the 120 memories of src/read/k-stable.test.ts (more than the calibration head, CALIBRATION_DEPTH), each
 * query's context at top_k 20 is compared with its context at a larger top_k (token budget large enough to hold
 * every item, so that only the retrieval differs).
 *
 *   npx tsx bench/context-topk.ts [--ks 20,25,30,40,60,80] [--no-rerank] [--candidates N] [--chain]
 *
 * Per larger top_k: how many queries keep the top_k-20 items (the first of --ks; with --chain, the previous top_k's)
 * as the first items of their semantic section (in the same order), and the mean share of them still present
 * anywhere in the context. src/read/k-stable.test.ts asserts the prefix against top_k 20 (CONTEXT_HEAD_TOP_K).
 */
import { parseArgs } from 'node:util';
import { parseContextConfig } from '../src/core/config.js';
import { buildContext } from '../src/read/context.js';
import { embedWith, indexPending, newEvent, openTestStore, readDeps, realEmbedder } from '../src/read/e2e.test-support.js';
import { DAY, HOUR, T0 } from '../src/read/fixtures.test-support.js';
import { INCIDENT_MEMORIES, INCIDENT_QUERIES } from '../src/read/incidents.test-support.js';

const { values: opts } = parseArgs({
  options: {
    ks: { type: 'string', default: '20,25,30,40,60,80' },
    'no-rerank': { type: 'boolean', default: false },
    candidates: { type: 'string' },
    chain: { type: 'boolean', default: false },
  },
});
const KS = opts.ks.split(',').map(Number);

const MEMORIES = INCIDENT_MEMORIES;
const QUERIES = INCIDENT_QUERIES;

const embedder = await realEmbedder();
const store = await openTestStore(embedder.model, embedder.dimension);
try {
  await store.storage.appendEvents(
    MEMORIES.map((content, i) => newEvent({ id: `evt_${i}`, sessionId: `S${i % 7}`, name: i % 2 ? 'assistant' : 'user', content, ts: T0 + i * HOUR })),
  );
  await indexPending(store.storage, embedder);
  const deps = readDeps(store.storage, T0 + 100 * DAY, embedWith(embedder));
  const items = async (query: string, top_k: number) => {
    const semantic_retrieval = {
      top_k,
      ...(opts['no-rerank'] ? { reranker: { enabled: false } } : {}),
      ...(opts.candidates ? { candidates: Number(opts.candidates) } : {}),
    };
    const config = parseContextConfig({ semantic_retrieval, merge_policy: { token_budget: 1_000_000 } });
    const ctx = await buildContext(deps, { tenant: 't1', query, config });
    const semantic = ctx.items.filter((i) => i.section !== 'episodic_recent');
    const byScore = [...semantic].sort((x, y) => y.scores.final - x.scores.final);
    return { all: ctx.items.map((i) => i.id), semantic: semantic.map((i) => i.id), byScore: byScore.map((i) => i.id), final: new Map(semantic.map((i) => [i.id, i.scores.final])) };
  };
  const base = new Map<string, Awaited<ReturnType<typeof items>>>();
  for (const q of QUERIES) base.set(q, await items(q, KS[0]!));
  console.log(`top_k ${KS[0]}: semantic items per query ${QUERIES.map((q) => base.get(q)!.semantic.length).join(' ')}`);
  for (const [at, k] of KS.slice(1).entries()) {
    const from = opts.chain ? KS[at]! : KS[0]!;
    let prefix = 0;
    let samePositions = 0;
    let kept = 0;
    let bestSame = 0;
    let maxDelta = 0;
    const lines: string[] = [];
    for (const q of QUERIES) {
      const a = opts.chain ? await items(q, from) : base.get(q)!;
      const b = await items(q, k);
      const head = b.semantic.slice(0, a.semantic.length);
      if (head.join() === a.semantic.join()) prefix++;
      const same = a.semantic.filter((id, i) => head[i] === id).length;
      samePositions += same / a.semantic.length;
      const present = a.semantic.filter((id) => b.all.includes(id)).length / a.semantic.length;
      kept += present;
      // The top_k-20 items against the same number of best-scored items of the larger context, as sets.
      const best = new Set(b.byScore.slice(0, a.byScore.length));
      bestSame += a.byScore.filter((id) => best.has(id)).length / a.byScore.length;
      for (const [id, f] of a.final) if (b.final.has(id)) maxDelta = Math.max(maxDelta, Math.abs(f - b.final.get(id)!));
      const firstDiff = a.semantic.findIndex((id, i) => head[i] !== id);
      lines.push(`    ${q}: ${b.semantic.length} items, same first ${firstDiff < 0 ? a.semantic.length : firstDiff}, same position ${same}/${a.semantic.length}, still present ${Math.round(present * 100)}%`);
    }
    const n = QUERIES.length;
    console.log(`top_k ${k} vs ${from}: prefix kept ${prefix}/${n}; mean share at the same position ${(samePositions / n).toFixed(3)}; mean share still present ${(kept / n).toFixed(3)}; mean share among as many best-scored ${(bestSame / n).toFixed(3)}; largest change of a shared item's final score ${maxDelta.toExponential(2)}`);
    for (const l of lines) console.log(l);
  }
} finally {
  await store.close();
  await embedder.close();
}
