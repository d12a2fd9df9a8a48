/**
 * The one invariant of the conversation set that must already hold: no other user's private item reaches a
 * user's context. Every conversation is written to a real embedded memory (SQLite, the offline encoder on the
 * main thread) and every checkpoint asks getContext with the caller's identity; no item may be a record written
 * for another user (by id), and no `other_user` expectation may be found (by keyword).
 */
import { describe, expect, it } from 'vitest';
import { loadConversations } from './fixtures.js';
import { runConversation } from './run.js';

const set = loadConversations();

describe('conversation set: one user\'s memories never reach another user', () => {
  it.each(set.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const results = await runConversation(c, { embedder: { provider: 'use-lite', workers: 0, batchSize: 32 } });
    expect(results.filter((r) => r.error).map((r) => `${r.checkpoint}: ${r.error}`)).toEqual([]);
    const leaks = results.flatMap((r) => [
      ...r.foreignItems.map((f) => `${r.checkpoint} (${r.userId}): record ${f.id} of ${f.owner}`),
      ...r.forbidden.filter((f) => f.reason === 'other_user' && !f.ok).map((f) => `${r.checkpoint} (${r.userId}): "${f.label}" in ${f.itemId}`),
    ]);
    expect(leaks).toEqual([]);
  }, 180_000);
});
