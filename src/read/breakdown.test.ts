/**
 * Every item getContext and search hand out carries a score breakdown whose named parts reproduce its final score:
 * (the weighted signals + outcome) · kind boost + graph + superseded + corrected + findings (types.ts). A read step that moved
 * `final` without naming what it added fails here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseContextConfig } from '../core/config.js';
import { openTestMemory, type TestMemory } from '../surfaces/mcp/memory.test-support.js';
import { effectiveRelevance } from './outcome.js';
import { kindBoost, routeQuery } from './router.js';
import type { ScoreBreakdown } from './types.js';
import type { DocKind } from '../core/types.js';

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const { weights: w } = parseContextConfig({}).scoring;

/** The final score the breakdown accounts for (events and episodes; a fact's relevance may be scaled by its confidence). */
function accounted(query: string, kind: DocKind, s: ScoreBreakdown): number {
  const plan = routeQuery(query);
  const relevance = effectiveRelevance({ kind, confidence: s.confidence ?? 0 }, s.relevance) ?? 0;
  const sum = w.relevance * relevance + w.recency * plan.recencyFactor * (s.recency ?? 0) + w.importance * (s.importance ?? 0) + w.confidence * (s.confidence ?? 0) + (s.outcome ?? 0);
  return sum * kindBoost(plan, kind) + (s.graph ?? 0) + (s.superseded ?? 0) + (s.corrected ?? 0) + (s.findings ?? 0);
}

describe('score breakdown', () => {
  it("accounts for every item's final score, in getContext (window copies merged) and search, graph lifts included", async () => {
    t = await openTestMemory();
    await t.memory.logEvents([
      { type: 'note', content: 'Alice manages Bob and meets him about the manager handbook weekly.', ts: '2025-01-01T10:00:00Z' },
      { type: 'note', content: 'Carol manages Alice.', ts: '2025-01-02T10:00:00Z' },
      { type: 'message', name: 'Bob', content: 'The handbook review with Alice moved to Thursday.', ts: '2025-01-03T10:00:00Z' },
      { type: 'message', name: 'Dana', content: 'I love hiking with my dog on weekends.', ts: '2025-01-04T10:00:00Z' },
      { type: 'message', name: 'Eli', content: 'Yesterday I bought new tomato seeds for the garden.', ts: '2025-01-05T10:00:00Z' },
    ]);
    await t.memory.flush();
    let graphed = 0;
    let checked = 0;
    for (const query of ["Who is Alice's manager?", 'What did Eli buy yesterday?', 'When is the handbook review?', 'What does Dana like doing on weekends?']) {
      const ctx = await t.memory.getContext(query, { semantic_retrieval: { top_k: 4 } });
      const hits = await t.memory.search({ query, k: 5 });
      const rows = [...ctx.items.map((i) => ({ kind: i.kind as DocKind, scores: i.scores })), ...hits.map((h) => ({ kind: h.doc.kind, scores: h.scores }))];
      for (const r of rows) {
        if (r.kind === 'fact') continue;
        expect(r.scores.final).toBeCloseTo(accounted(query, r.kind, r.scores), 9);
        checked++;
        if ((r.scores.graph ?? 0) > 0) graphed++;
      }
    }
    expect(checked).toBeGreaterThan(10);
    // The fixture exercises the graph's lift ("Carol manages Alice" ahead of the rest).
    expect(graphed).toBeGreaterThan(0);
  });
});
