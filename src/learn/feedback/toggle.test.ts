import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../core/types.js';
import { openTestLearn, type TestLearn } from './deps.test-support.js';
import { findOrCreate } from './toggle.js';

let t: TestLearn;
beforeAll(async () => {
  t = await openTestLearn();
});
afterAll(async () => t.close());

const scope: Scope = { tenant: 'default', userId: 'u1' };
const pair = { query: 'How do I list open ports?', response: 'Run `ss -tlnp`.', polarity: 'positive' as const };

describe('findOrCreate', () => {
  it('stores a new pair once, tells the indexer, and finds it the next time', async () => {
    const first = await findOrCreate(t.deps, scope, pair, 'feedback');
    expect(first.status).toBe('created');
    expect(first.example).toMatchObject({ polarity: 'positive', origin: 'feedback', userId: 'u1' });
    expect(t.notified()).toBe(1);

    const again = await findOrCreate(t.deps, scope, { ...pair, polarity: 'negative' }, 'analysis');
    expect(again).toEqual({ status: 'existing', example: first.example });
    expect(t.notified()).toBe(1);
  });

  it('creates the pair anew in another scope', async () => {
    const other = await findOrCreate(t.deps, { ...scope, userId: 'u2' }, pair, 'analysis');
    expect(other.status).toBe('created');
    expect(other.example.origin).toBe('analysis');
  });
});
