import { describe, expect, it } from 'vitest';
import type { Checkpoint } from './fixtures.js';
import { judgeCheckpoint } from './judge.js';
import { summarize, type CheckpointResult } from './run.js';

const checkpoint: Checkpoint = {
  id: 'c1',
  user_id: 'carol',
  session_id: 'carol-s2',
  query: 'Can I get a refund, and how do we reach her?',
  must_contain: [
    { any: [['refunded in full', '30 days']], note: 'policy' },
    { any: [['email only'], ['by email']], note: 'contact' },
    { any: [['A-1042']], note: 'order' },
  ],
  must_not_contain: [
    { reason: 'other_user', any: [['B-2210']], note: 'dave order' },
    { reason: 'stale', any: [['lives in Montreal']], note: 'old city' },
    { reason: 'stale', any: [['on the Basic plan']], note: 'old plan' },
    { reason: 'irrelevant', any: [['standard delivery']], note: 'shipping filler' },
  ],
};

describe('conversation judge', () => {
  it('scores a hand-made context item by item', () => {
    const items = [
      { id: 'fact-1', kind: 'fact', text: 'Refund policy: annual plans are REFUNDED IN FULL within 30 days of purchase.' },
      { id: 'ev-1', kind: 'event', text: 'carol: Please contact me BY EMAIL, never call.' },
      // A dated old message states the old city: not a fact, so not "served as current".
      { id: 'ev-2', kind: 'event', text: 'carol: I live in Montreal — well, she lives in Montreal no more.' },
      // The superseded plan marked as past does not count…
      { id: 'fact-2', kind: 'fact', text: 'Carol is on the Basic plan (no longer valid since 2025-04-02).' },
      // …but another user's record does, both by keyword and by id.
      { id: 'ev-dave', kind: 'event', text: 'dave: Where is my order B-2210?' },
    ];
    const v = judgeCheckpoint(checkpoint, items, new Map([['ev-dave', 'dave'], ['ev-1', 'carol']]));
    expect(v.required).toEqual([
      { label: 'policy', ok: true, itemId: 'fact-1' },
      { label: 'contact', ok: true, itemId: 'ev-1' },
      { label: 'order', ok: false, itemId: null },
    ]);
    expect(v.forbidden.map((f) => [f.label, f.ok, f.itemId])).toEqual([
      ['dave order', false, 'ev-dave'],
      ['old city', true, null],
      ['old plan', true, null],
      ['shipping filler', true, null],
    ]);
    expect(v.foreignItems).toEqual([{ id: 'ev-dave', owner: 'dave' }]);
  });

  it('counts a stale value stated by a fact without a past marker, and an irrelevant item of any kind', () => {
    const items = [
      { id: 'f', kind: 'fact', text: 'Carol lives in Montreal.' },
      { id: 'e', kind: 'episode', text: 'Standard delivery takes 3-5 business days.' },
    ];
    const v = judgeCheckpoint(checkpoint, items, new Map());
    expect(v.forbidden.filter((f) => !f.ok).map((f) => f.label)).toEqual(['old city', 'shipping filler']);
    expect(v.required.every((r) => !r.ok)).toBe(true);
  });

  it('needs every keyword of one alternative in the same item', () => {
    const items = [
      { id: 'a', kind: 'fact', text: 'Annual plans are refunded in full.' },
      { id: 'b', kind: 'fact', text: 'Monthly plans: 30 days notice.' },
    ];
    expect(judgeCheckpoint(checkpoint, items, new Map()).required[0]!.ok).toBe(false);
  });

  it('summarises shares overall, per domain and per reason', () => {
    const v = judgeCheckpoint(checkpoint, [{ id: 'x', kind: 'fact', text: 'refunded in full within 30 days; B-2210' }], new Map([['x', 'dave']]));
    const r: CheckpointResult = { conversation: 'c', domain: 'support', checkpoint: 'c1', userId: 'carol', sessionId: 's', query: 'q', items: 1, ...v };
    const s = summarize(1, [r, { ...r, domain: 'sales' }], 1);
    expect(s.present).toEqual({ ok: 2, of: 6, share: 0.333 });
    expect(s.absent).toEqual({ ok: 6, of: 8, share: 0.75 });
    expect(s.absentByReason.other_user).toEqual({ ok: 0, of: 2, share: 0 });
    expect(s.absentByReason.stale).toEqual({ ok: 4, of: 4, share: 1 });
    expect(Object.keys(s.byDomain)).toEqual(['support', 'sales']);
    expect(s.foreignItems).toBe(2);
    expect(s.checkpointsWithForeignItems).toBe(2);
  });
});
