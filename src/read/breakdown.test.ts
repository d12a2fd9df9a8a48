/**
 * Every item getContext and search hand out carries a score breakdown whose named parts reproduce its final score:
 * (the weighted signals + outcome) · kind boost + the lifts (graph, superseded, … : lifts.ts). A read step
 * that moved `final` without naming what it added fails here: over plain events, and over closed cases learned from
 * outcomes (a correction among them) read by a query that states a change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseContextConfig } from '../core/config.js';
import { openTestMemory as openLearning, type TestMemory as LearningMemory } from '../../testing/memory-fixture.js';
import { tickingClock } from '../learn/engine/fixtures.test-support.js';
import { openTestMemory, type TestMemory } from '../surfaces/mcp/memory.test-support.js';
import { liftTotal } from './lifts.js';
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
  return sum * kindBoost(plan, kind) + liftTotal(s);
}

/** Rows of getContext and search: every item and hit but facts (a fact's relevance may be scaled by its confidence). */
async function rows(memory: TestMemory['memory'], query: string, config: Parameters<TestMemory['memory']['getContext']>[1]) {
  const ctx = await memory.getContext(query, config);
  const hits = await memory.search({ query, k: 8 });
  return [...ctx.items.map((i) => ({ kind: i.kind as DocKind, scores: i.scores })), ...hits.map((h) => ({ kind: h.doc.kind, scores: h.scores }))].filter((r) => r.kind !== 'fact');
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

  it('accounts for closed cases too: outcomes, a correction, and the situation step of a query that states a change', async () => {
    const tm: LearningMemory = await openLearning({ learn: { engine: { background: false, reflect: false } } }, tickingClock());
    try {
      // Learned round by round as an agent records them (situation-e2e.test.ts): retrieve, log, record the outcome.
      const rounds = [
        { report: 'Checkout returns 500 errors during the evening peak.', note: 'All 50 database connections are in use.', cause: 'Database connection pool exhausted under peak load', outcome: 'FAILURE' as const },
        { report: 'Checkout returns 500 errors when traffic doubles.', note: 'The pool waits for a free connection for 30 s.', cause: 'Connection pool too small for peak traffic', outcome: 'FAILURE' as const },
        { report: 'Search results are empty since the new index settings were deployed.', note: 'The settings dropped the product field.', cause: 'The product field missing from the search index', outcome: 'FAILURE' as const },
        {
          report: 'Checkout returns 500 errors during the evening rush.',
          note: 'A report query holds the connections for minutes.',
          cause: 'A slow report query held the database connections',
          outcome: 'SUCCESS' as const,
          correction: 'Not the connection pool exhausted under peak load: a slow report query held the connections.',
        },
      ];
      for (const [i, r] of rounds.entries()) {
        const taskId = `round-${i + 1}`;
        await tm.memory.flush();
        const ctx = await tm.memory.getContext(r.report, { task_id: taskId, episodic_window: { mode: 'none', n: 0 } });
        await tm.memory.logEvents([
          { taskId, type: 'message', actor: 'user', content: r.report },
          { taskId, type: 'observation', actor: 'agent', content: r.note },
        ]);
        await tm.memory.recordOutcome(ctx.retrievalId, r.outcome, { rootCause: r.cause, ...(r.correction ? { correction: r.correction } : {}) });
      }
      await tm.memory.flush();
      const seen = { checked: 0, outcome: 0, situation: 0 };
      const config = { episodic_window: { mode: 'none' as const, n: 0 }, semantic_retrieval: { top_k: 5 } };
      for (const query of ['Checkout returns 500 errors during the evening peak since the 2.5 release was rolled out.', 'Checkout returns 500 errors during the evening peak.']) {
        for (const r of await rows(tm.memory, query, config)) {
          expect(r.scores.final).toBeCloseTo(accounted(query, r.kind, r.scores), 9);
          seen.checked++;
          if ((r.scores.outcome ?? 0) > 0) seen.outcome++;
          if ((r.scores.situation ?? 0) < 0) seen.situation++;
        }
      }
      expect(seen.checked).toBeGreaterThan(10);
      // Reranked episodes: the outcome bonus scales with relevance and is restated with it (score.ts atRelevance).
      expect(seen.outcome).toBeGreaterThan(0);
      // The fixture exercises the situation step's move (a contradicted case placed behind the one that followed a change).
      expect(seen.situation).toBeGreaterThan(0);
    } finally {
      await tm.cleanup();
    }
  }, 120_000);
});
