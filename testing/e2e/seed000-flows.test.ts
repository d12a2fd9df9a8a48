/** Seed 000's three demo flows, end to end on a real SQLite file and the real embedding model. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOY_TASK, SUPPORT_SESSION, deployEvents, policyChunks, supportTurns } from '../../src/demo/seed000.js';
import { openTestMemory, type TestMemory } from '../memory-fixture.js';

describe("seed 000's demo flows", () => {
  let t: TestMemory;

  beforeAll(async () => {
    t = await openTestMemory();
    await t.memory.logEvents(deployEvents);
    await t.memory.logEvents(supportTurns);
    for (const p of policyChunks) await t.memory.remember(p);
    await t.memory.flush();
  });
  afterAll(() => t.cleanup());

  it('episodic replay: the last 5 events of the deploy task, oldest first, tool calls with args and result', async () => {
    const events = await t.memory.fetchEvents({ taskId: DEPLOY_TASK, lastN: 5 });
    expect(events.map((e) => e.ts)).toEqual(deployEvents.slice(-5).map((e) => Date.parse(e.ts as string)));
    const last = events.at(-1)!;
    expect(last.type).toBe('tool_call');
    expect(last.tool).toBe('kubectl');
    expect(last.args).toEqual({ ns: 'payments', action: 'rollout status' });
    expect(last.content).toContain('exceeded its progress deadline');
  });

  it('semantic recall: top 3 refund policy snippets for annual plans, with source and section', async () => {
    const hits = await t.memory.search({
      query: 'What are the refund rules for annual plans?',
      k: 3,
      kinds: ['fact'],
      filter: { tags: ['policy'] },
    });
    expect(hits).toHaveLength(3);
    for (const h of hits) {
      expect(h.doc.source).toBe('billing-policy.md');
      expect(h.doc.section).toMatch(/^refunds\//);
    }
    expect(hits.map((h) => h.doc.section)).toContain('refunds/annual');
  });

  it('hybrid merge: last 4 chat turns plus password-reset policy within the token budget', async () => {
    const budget = 350;
    const ctx = await t.memory.getContext('The customer wants to reset their password', {
      episodic_window: { mode: 'last_n_events', n: 4, filters: { session_id: SUPPORT_SESSION } },
      semantic_retrieval: { top_k: 3, filters: { tags: ['policy'] }, kinds: ['fact'] },
      merge_policy: { dedupe: 'source+hash', priority: ['episodic_recent', 'semantic_policy'], token_budget: budget },
    });
    expect(ctx.tokens.used).toBeLessThanOrEqual(budget);
    const recent = ctx.items.filter((i) => i.section === 'episodic_recent');
    expect(recent.map((i) => i.text)).toEqual(supportTurns.slice(-4).map((e) => `${e.name}: ${e.content}`));
    const policy = ctx.items.filter((i) => i.section !== 'episodic_recent');
    expect(policy.length).toBeGreaterThan(0);
    expect(policy[0]!.provenance.section).toBe('password-reset');
    expect(ctx.text).toContain('security-policy.md');
    expect(ctx.retrievalId).toMatch(/^ret_/);
  });
});
