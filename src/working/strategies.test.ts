import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../core/tokens.js';
import { appendItem, removeItem, replaceItem, setEntity } from './edits.js';
import { extractEntitiesHeuristically, HeuristicEntityExtractor, mergeEntities } from './entities.js';
import { addTurn } from './history.js';
import { parseWorkingMemoryOptions } from './options.js';
import { renderState } from './render.js';
import { emptyState, type WmTurn, type WorkingState } from './state.js';
import { ExtractiveSummarizer, summarizeExtractive } from './summarize.js';

const tokens = createTokenCounter('cl100k_base');
const tools = { summarizer: new ExtractiveSummarizer(tokens), extractor: new HeuristicEntityExtractor(), tokens };

const CONVERSATION: [WmTurn['role'], string][] = [
  ['user', 'Hi, my name is Alice and I need to fix the login bug before Friday.'],
  ['agent', 'Sure. Which browser shows the bug?'],
  ['user', "Chrome. I'm using React 18 with Vite."],
  ['agent', 'I found the cause: the session cookie is set without SameSite, so Chrome drops it.'],
  ['user', 'ok'],
  ['agent', 'I decided to set SameSite=Lax on the cookie in auth/session.ts.'],
  ['user', 'Deploy it to staging please.'],
  ['agent', 'Deployed build 4812 to staging; login works there now.'],
];

async function play(history: 'sliding_window' | 'summarize', windowTurns: number, foldTurns = 1): Promise<{ state: WorkingState; folded: number }> {
  const o = parseWorkingMemoryOptions({ history, windowTurns, foldTurns, maxTokens: 5000 });
  let state = emptyState();
  let folded = 0;
  for (const [i, [role, content]] of CONVERSATION.entries()) {
    const r = await addTurn(state, { role, content }, i + 1, o, tools);
    state = r.state;
    folded += r.evicted.length;
  }
  return { state, folded };
}

describe('sliding window', () => {
  it('keeps exactly the last N turns and drops the rest without a summary', async () => {
    const { state, folded } = await play('sliding_window', 3);
    expect(state.turns.map((t) => t.content)).toEqual(CONVERSATION.slice(-3).map(([, c]) => c));
    expect(state.summary).toBeUndefined();
    expect(folded).toBe(5);
    expect(state.evictedCount).toBe(5);
  });
});

describe('summarization', () => {
  it('folds the oldest turns into a summary that keeps what mattered and drops the chatter', async () => {
    const { state } = await play('summarize', 3, 3);
    // 8 turns, window 3, fold 3: folds at turn 4 (turns 1–3) and turn 7 (4–6); 2 remain verbatim.
    expect(state.turns.map((t) => t.content)).toEqual(CONVERSATION.slice(-2).map(([, c]) => c));
    expect(state.summary).toContain('User: Hi, my name is Alice and I need to fix the login bug before Friday.');
    expect(state.summary).toContain('SameSite');
    expect(state.summary).not.toMatch(/User: ok\b/);
  });

  it('keeps the summary within its token budget, preferring informative sentences', () => {
    const turns: WmTurn[] = CONVERSATION.map(([role, content], i) => ({ role, content, at: i }));
    const summary = summarizeExtractive(undefined, turns, 40, tokens);
    expect(tokens.count(summary)).toBeLessThanOrEqual(40);
    expect(summary).toMatch(/SameSite|login bug/);
    expect(summary).not.toContain('Which browser');
  });

  it('drops a sentence that repeats what the summary already says', () => {
    const prev = 'Agent: Deployed build 4812 to staging; login works there now.';
    const summary = summarizeExtractive(prev, [{ role: 'agent', content: 'Deployed build 4812 to staging; login works there now.', at: 1 }], 100, tokens);
    expect(summary).toBe(prev);
  });
});

describe('entity extraction', () => {
  it('keeps a state dictionary of the key facts the user states', async () => {
    const { state } = await play('sliding_window', 2);
    const dict = Object.fromEntries(state.entities.map((e) => [e.key, e.value]));
    expect(dict).toMatchObject({ 'User Name': 'Alice', Goal: 'Fix the login bug before Friday', Deadline: 'Friday', Using: 'React 18 with Vite' });
    expect(renderState(state)).toContain('## Key Facts\n- User Name: Alice\n- Goal: Fix the login bug before Friday');
  });

  it('reads explicit Key: value lines from anyone, and error codes from tools', () => {
    expect(extractEntitiesHeuristically({ role: 'agent', content: 'Status: blocked on review\nOwner: Bob', at: 1 })).toEqual([
      { key: 'Status', value: 'blocked on review' },
      { key: 'Owner', value: 'Bob' },
    ]);
    expect(extractEntitiesHeuristically({ role: 'tool', content: 'connect ECONNREFUSED 127.0.0.1:5432', at: 1 })).toEqual([{ key: 'Error', value: 'ECONNREFUSED 127.0.0.1:5432' }]);
    // Not a name, not the user's own statement.
    expect(extractEntitiesHeuristically({ role: 'user', content: "I'm Sorry, I'm not sure.", at: 1 })).toEqual([]);
    expect(extractEntitiesHeuristically({ role: 'agent', content: 'I need to check the logs.', at: 1 })).toEqual([]);
  });

  it('updates a key in place and drops the stalest beyond the maximum', () => {
    let e = mergeEntities([], [{ key: 'Goal', value: 'Fix bug' }], 1, 2);
    e = mergeEntities(e, [{ key: 'goal', value: 'Ship release' }, { key: 'User Name', value: 'Alice' }], 2, 2);
    expect(e).toEqual([
      { key: 'Goal', value: 'Ship release', updatedAt: 2 },
      { key: 'User Name', value: 'Alice', updatedAt: 2 },
    ]);
    e = mergeEntities(e, [{ key: 'Deadline', value: 'Friday' }], 3, 2);
    expect(e.map((x) => x.key)).toHaveLength(2);
    expect(e.map((x) => x.key)).toContain('Deadline');
  });
});

describe('self-editing operations', () => {
  const o = parseWorkingMemoryOptions({ maxTokens: 1000 });

  it('appends with short ids per kind, replaces whole or in part, and removes', () => {
    let s = appendItem(emptyState(), { kind: 'note', content: 'pool size is 20' }, 1, o, tokens).state;
    const ev = appendItem(s, { kind: 'evidence', content: 'p99 latency 2.3s', source: 'grafana' }, 2, o, tokens);
    s = ev.state;
    expect(s.items.map((i) => [i.id, i.priority])).toEqual([
      ['n1', 1],
      ['e2', 2],
    ]);
    s = replaceItem(s, { id: 'n1', find: '20', content: '50' }, o, tokens).state;
    s = replaceItem(s, { find: 'latency 2.3s', content: 'latency 0.4s after the fix', priority: 7 }, o, tokens).state;
    expect(s.items.map((i) => [i.content, i.priority])).toEqual([
      ['pool size is 50', 1],
      ['p99 latency 0.4s after the fix', 7],
    ]);
    expect(renderState(s)).toContain('## Evidence Gathered\n- [grafana] p99 latency 0.4s after the fix (id: e2)');
    expect(renderState(s, { ids: false })).toContain('## Scratchpad\npool size is 50');
    s = removeItem(s, 'n1').state;
    expect(s.items.map((i) => i.id)).toEqual(['e2']);
    // Ids are never reused, so a stale id cannot hit a newer item.
    expect(appendItem(s, { kind: 'note', content: 'x' }, 3, o, tokens).item.id).toBe('n3');
  });

  it('names what is missing', () => {
    expect(() => removeItem(emptyState(), 'n9')).toThrow(/no working-memory item n9/);
    const s = appendItem(emptyState(), { kind: 'note', content: 'abc' }, 1, o, tokens).state;
    expect(() => replaceItem(s, { id: 'n1', find: 'zzz', content: 'q' }, o, tokens)).toThrow(/does not contain/);
    expect(() => replaceItem(s, { id: 'n1', content: '  ' }, o, tokens)).toThrow(/empty/);
  });

  it('sets and clears key facts by name, case-insensitively', () => {
    let s = setEntity(emptyState(), 'Goal', 'Fix bug', 1, o);
    s = setEntity(s, 'goal', 'Ship it', 2, o);
    expect(s.entities).toEqual([{ key: 'Goal', value: 'Ship it', updatedAt: 2 }]);
    expect(setEntity(s, 'GOAL', null, 3, o).entities).toEqual([]);
  });
});
