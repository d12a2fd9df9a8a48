/**
 * The situation step end to end (SQLite + USE-lite): incidents learned round by round the way an agent records
 * them — retrieve for the report, log the investigation, record the outcome with its root cause (which links the
 * new episode to what was retrieved) — then a report that says its trouble followed a change, and one that does
 * not (which sees the recurring cause's count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../testing/memory-fixture.js';
import type { ContextConfigInput } from '../core/config.js';
import { tickingClock } from '../learn/engine/fixtures.test-support.js';

interface Round {
  report: string;
  note: string;
  cause: string;
  outcome: 'FAILURE' | 'SUCCESS';
}

const ROUNDS: Round[] = [
  { report: 'Checkout requests time out during the evening peak.', note: 'All 50 database connections are in use.', cause: 'Database connection pool exhausted under peak load', outcome: 'FAILURE' },
  { report: 'Order API returns 503 errors when traffic doubles.', note: 'The pool waits for a free connection for 30 s.', cause: 'Connection pool too small for peak traffic', outcome: 'FAILURE' },
  { report: 'Payment calls stall every lunch hour.', note: 'Connections to the database are all checked out.', cause: 'Connection pool saturated at peak hours', outcome: 'SUCCESS' },
  { report: 'Checkout returns 500 errors since the 2.4 release was deployed this morning.', note: 'The release added a query without an index.', cause: 'A query added by the 2.4 release scans the whole orders table', outcome: 'FAILURE' },
];

const config = (taskId: string): ContextConfigInput => ({
  task_id: taskId,
  episodic_window: { mode: 'none', n: 0 },
  semantic_retrieval: { top_k: 5, kinds: ['episode'] },
});

describe('situation: episodes that contradict the query are left out when the best one matches it', () => {
  let tm: TestMemory;
  const ids = new Map<number, string>();

  beforeAll(async () => {
    tm = await openTestMemory({ learn: { engine: { background: false, reflect: false } } }, tickingClock());
    for (const [i, r] of ROUNDS.entries()) {
      const taskId = `round-${i + 1}`;
      await tm.memory.flush();
      const ctx = await tm.memory.getContext(r.report, config(taskId));
      await tm.memory.logEvents([
        { taskId, type: 'message', actor: 'user', content: r.report },
        { taskId, type: 'observation', actor: 'agent', content: r.note },
      ]);
      const report = await tm.memory.recordOutcome(ctx.retrievalId, r.outcome, { rootCause: r.cause });
      ids.set(i + 1, report.episode.id);
    }
    await tm.memory.flush();
  }, 120_000);
  afterAll(async () => {
    await tm.cleanup();
  });

  it('a report after a change gets the change-driven episode, not the look-alikes that followed none', async () => {
    const r = await tm.memory.getContext('Order API returns 500 errors since the 2.5 release was rolled out.', { ...config('round-5'), explain: true });
    const episodes = r.items.filter((i) => i.kind === 'episode').map((i) => i.id);
    expect(episodes[0]).toBe(ids.get(4));
    // Rounds 1-3 followed no change: dropped, and not brought back by the links that tie them to round 4.
    for (const n of [1, 2, 3]) expect(episodes).not.toContain(ids.get(n));
    // With explain, the inspector names the step that left them out.
    const dropped = new Map(r.droppedItems?.map((d) => [d.id, d.reason]));
    for (const n of [1, 2, 3]) expect(dropped.get(ids.get(n)!)).toBe('situation');
  });

  it('a report that states no change sees them all', async () => {
    const r = await tm.memory.getContext('Order API returns 500 errors at peak traffic.', config('round-6'));
    const episodes = r.items.filter((i) => i.kind === 'episode').map((i) => i.id);
    expect(episodes.length).toBe(4);
  });

  it('the pool cause seen in three cases is shown once with its count, in the text and on the item', async () => {
    const r = await tm.memory.getContext('Order API returns 500 errors at peak traffic.', config('round-7'));
    const counted = r.items.filter((i) => i.episode?.recurringCases !== undefined);
    expect(counted.map((i) => i.episode!.recurringCases)).toEqual([3]);
    expect([1, 2, 3].map((n) => ids.get(n))).toContain(counted[0]!.id);
    expect(counted[0]!.text).toContain('Recurring cause: 3 similar cases.');
    expect(r.text.match(/Recurring cause: \d+ similar cases/g)).toHaveLength(1);
  });
});
