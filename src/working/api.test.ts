import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngramError } from '../core/errors.js';
import { openTestLearn, type TestLearn } from '../learn/feedback/deps.test-support.js';
import { createWorkingMemoryApi, type WorkingMemoryApi } from './api.js';

let t: TestLearn;
let wm: WorkingMemoryApi;

beforeAll(async () => {
  t = await openTestLearn();
  wm = createWorkingMemoryApi(t.deps, { maxTokens: 400 });
});
afterAll(async () => t.close());

describe('working memory on SQLite', () => {
  it('persists every change under an increasing version and renders seed 004’s sections', async () => {
    const ref = { sessionId: 'incident-7' };
    expect((await wm.view(ref)).version).toBe(0);
    await wm.setPlan({ ...ref, plan: '1. Find why checkout returns 503\n2. Fix it\n3. Verify' });
    const e = await wm.append({ ...ref, kind: 'evidence', content: 'DB pool exhausted at 20 connections', source: 'grafana:db-pool' });
    const n = await wm.append({ ...ref, content: 'Suspect the new retry loop', priority: 3 });
    expect([e.item.id, n.item.id]).toEqual(['e1', 'n2']);
    expect(n.version).toBe(3);

    const fresh = createWorkingMemoryApi(t.deps, { maxTokens: 400 });
    const text = await fresh.toContext(ref);
    expect(text).toBe(
      [
        '## Current Plan\n1. Find why checkout returns 503\n2. Fix it\n3. Verify',
        '## Evidence Gathered\n- [grafana:db-pool] DB pool exhausted at 20 connections (id: e1)',
        '## Scratchpad\n- Suspect the new retry loop (id: n2)',
      ].join('\n\n'),
    );
    const view = await fresh.view(ref);
    expect(view).toMatchObject({ version: 3, tokens: t.deps.tokens.count(text), maxTokens: 400 });

    await wm.remove({ ...ref, id: 'n2' });
    expect((await wm.view(ref)).items.map((i) => i.id)).toEqual(['e1']);
    expect(await wm.clear(ref)).toBe(true);
    expect((await wm.view(ref)).version).toBe(0);
  });

  it('keeps tenants and sessions apart', async () => {
    await wm.append({ tenant: 'a', sessionId: 's', content: 'tenant a note' });
    await wm.append({ tenant: 'b', sessionId: 's', content: 'tenant b note' });
    expect(await wm.toContext({ tenant: 'a', sessionId: 's' })).toContain('tenant a note');
    expect(await wm.toContext({ tenant: 'a', sessionId: 's' })).not.toContain('tenant b note');
    expect(await wm.toContext({ tenant: 'a', sessionId: 'other' })).toBe('');
  });

  it('scrubs PII out of what it stores', async () => {
    await wm.append({ sessionId: 'pii', content: 'Customer email is jane.doe@example.com' });
    const text = await wm.toContext({ sessionId: 'pii' });
    expect(text).toContain('Customer email is');
    expect(text).not.toContain('jane.doe@example.com');
  });

  it('loses no change when many writers edit one session at once (CONFLICT is retried)', async () => {
    const big = createWorkingMemoryApi(t.deps, { maxTokens: 5000 });
    const ref = { sessionId: 'concurrent' };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => big.append({ ...ref, content: `note number ${i}` })));
    const view = await big.view(ref);
    expect(view.version).toBe(20);
    expect(view.items.map((i) => i.content).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `note number ${i}`).sort());
    expect(new Set(results.map((r) => r.item.id)).size).toBe(20);
    expect(new Set(results.map((r) => r.version)).size).toBe(20);
  });

  it('evicts by priority under the cap and says what went', async () => {
    const small = createWorkingMemoryApi(t.deps, { maxTokens: 60 });
    const ref = { sessionId: 'evict' };
    await small.append({ ...ref, content: 'keep: the root cause is the retry storm in the payment client', priority: 9 });
    await small.append({ ...ref, content: 'scratch: maybe check the CDN logs later, probably unrelated', priority: 0 });
    const r = await small.append({ ...ref, content: 'keep too: rollback of release 4.2 fixed the errors on staging', priority: 8 });
    expect(r.evicted.map((e) => [e.unit, e.id, e.reason])).toEqual([['item', 'n2', 'cap']]);
    expect(r.tokens).toBeLessThanOrEqual(60);
    expect((await small.view(ref)).items.map((i) => i.id)).toEqual(['n1', 'n3']);
  });

  it('never exceeds the cap over random sequences of operations (property, real storage)', async () => {
    const op = fc.oneof(
      fc.record({ op: fc.constant('append' as const), content: fc.lorem({ maxCount: 30 }), priority: fc.integer({ min: 0, max: 10 }), evidence: fc.boolean() }),
      fc.record({ op: fc.constant('turn' as const), role: fc.constantFrom('user' as const, 'agent' as const), content: fc.lorem({ maxCount: 40 }) }),
      fc.record({ op: fc.constant('plan' as const), content: fc.lorem({ maxCount: 60 }) }),
      fc.record({ op: fc.constant('remove' as const), nth: fc.nat() }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), fc.integer({ min: 20, max: 300 }), async (ops, maxTokens) => {
        const api = createWorkingMemoryApi(t.deps, { maxTokens, windowTurns: 4, foldTurns: 2 });
        const ref = { sessionId: `prop-${run++}` };
        for (const o of ops) {
          if (o.op === 'append') await api.append({ ...ref, content: o.content, priority: o.priority, ...(o.evidence ? { kind: 'evidence', source: 'test' } : {}) });
          else if (o.op === 'turn') await api.addTurn({ ...ref, role: o.role, content: o.content });
          else if (o.op === 'plan') await api.setPlan({ ...ref, plan: o.content });
          else {
            const items = (await api.view(ref)).items;
            if (items.length) await api.remove({ ...ref, id: items[o.nth % items.length]!.id });
          }
          const view = await api.view(ref);
          expect(view.tokens).toBeLessThanOrEqual(maxTokens);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('applies the summarization strategy on turns and keeps key facts', async () => {
    const api = createWorkingMemoryApi(t.deps, { maxTokens: 2000, windowTurns: 2, foldTurns: 2 });
    const ref = { sessionId: 'turns' };
    await api.addTurn({ ...ref, role: 'user', content: 'My name is Alice and I need to migrate the orders table to Postgres 16.' });
    await api.addTurn({ ...ref, role: 'assistant', content: 'Plan: dump with pg_dump, restore into 16, then switch the connection string.' });
    const r = await api.addTurn({ ...ref, role: 'user', content: 'The restore failed with ERR_PG_53300 too many connections.' });
    expect(r.evicted.map((e) => e.reason)).toEqual(['folded', 'folded']);
    expect(r.entities).toEqual([{ key: 'Error', value: 'ERR_PG_53300 too many connections' }]);
    const view = await api.view(ref);
    expect(view.turns).toHaveLength(1);
    expect(view.summary).toContain('User: My name is Alice and I need to migrate the orders table to Postgres 16.');
    expect(view.entities.map((e) => `${e.key}: ${e.value}`)).toEqual([
      'User Name: Alice',
      'Goal: Migrate the orders table to Postgres 16',
      'Plan: dump with pg_dump, restore into 16, then switch the connection string',
      'Error: ERR_PG_53300 too many connections',
    ]);
    expect(view.text).toMatch(/## Key Facts[\s\S]*## Earlier in this session[\s\S]*## Recent Turns\nuser: The restore failed/);
  });

  it('rejects bad input naming the field, and unknown ids as NOT_FOUND', async () => {
    const noSource = await wm.append({ sessionId: 'v', kind: 'evidence', content: 'x' }).catch((e: unknown) => e);
    expect(isEngramError(noSource, 'VALIDATION') && noSource.issues[0]!.path).toBe('source');
    const noSession = await wm.append({ content: 'x' } as never).catch((e: unknown) => e);
    expect(isEngramError(noSession, 'VALIDATION') && noSession.issues[0]!.path).toBe('sessionId');
    const missing = await wm.remove({ sessionId: 'v', id: 'n404' }).catch((e: unknown) => e);
    expect(isEngramError(missing, 'NOT_FOUND')).toBe(true);
  });

  it('expires a scratchpad after its TTL and starts afresh', async () => {
    let now = Date.UTC(2025, 5, 1);
    const api = createWorkingMemoryApi({ ...t.deps, clock: { now: () => now } }, { ttlMinutes: 60 });
    await api.append({ sessionId: 'ttl', content: 'short-lived' });
    now += 59 * 60_000;
    expect(await api.toContext({ sessionId: 'ttl' })).toContain('short-lived');
    now += 2 * 60_000;
    expect(await api.toContext({ sessionId: 'ttl' })).toBe('');
    const r = await api.append({ sessionId: 'ttl', content: 'new task' });
    expect(r.version).toBe(1);
  });

  it('says page-out and page-in need long-term memory when none is attached', async () => {
    await wm.append({ sessionId: 'nolt', content: 'x' });
    const out = await wm.pageOut({ sessionId: 'nolt', id: 'n1' }).catch((e: unknown) => e);
    expect(isEngramError(out, 'UNAVAILABLE')).toBe(true);
    const inn = await wm.pageIn({ sessionId: 'nolt', query: 'x' }).catch((e: unknown) => e);
    expect(isEngramError(inn, 'UNAVAILABLE')).toBe(true);
  });
});
