import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../surfaces/mcp/memory.test-support.js';

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const NO_WINDOW = { episodic_window: { mode: 'none' as const } };

describe('graph support in getContext', () => {
  it('a relation the query matches by type alone shows in Entities but does not lift its statement over what search ranked first', async () => {
    t = await openTestMemory();
    await t.memory.logEvents([
      { type: 'message', name: 'Dana', content: 'I love hiking with my dog on weekends.', ts: '2025-01-01T10:00:00Z' },
      { type: 'message', name: 'Dana', content: 'My ideal garden would look like a quiet meadow with a pond.', ts: '2025-01-02T10:00:00Z' },
      { type: 'message', name: 'Eli', content: 'I bought new tomato seeds yesterday.', ts: '2025-01-03T10:00:00Z' },
    ]);
    await t.memory.flush();
    const query = 'What does Dana think her ideal garden should look like?';
    const ranked = await t.memory.search({ query, k: 3 });
    expect(ranked[0]!.doc.text).toContain('ideal garden');
    const ctx = await t.memory.getContext(query, { ...NO_WINDOW, semantic_retrieval: { top_k: 3 } });
    // "like" asks for `likes` without a direction: the relation is shown, its statement keeps its own rank.
    expect(ctx.entities?.map((e) => e.text)).toContain('Dana likes hiking');
    expect(ctx.items[0]!.text).toContain('ideal garden');
  });

  it('a relation read in the direction the query says still lifts its statement first', async () => {
    t = await openTestMemory();
    const [, carol] = await t.memory.logEvents([
      { type: 'note', content: 'Alice manages Bob and meets him about the manager handbook weekly.', ts: '2025-01-01T10:00:00Z' },
      { type: 'note', content: 'Carol manages Alice.', ts: '2025-01-02T10:00:00Z' },
    ]);
    await t.memory.flush();
    const ctx = await t.memory.getContext("Who is Alice's manager?", { ...NO_WINDOW, semantic_retrieval: { top_k: 2 } });
    expect(ctx.items[0]!.id).toBe(carol!.id);
  });
});
