import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../core/tokens.js';
import { fitToCap } from './fit.js';
import { parseWorkingMemoryOptions } from './options.js';
import { renderState } from './render.js';
import { emptyState, ITEM_KINDS, TURN_ROLES, type WorkingState } from './state.js';

const tokens = createTokenCounter('cl100k_base');

const text = fc.oneof(fc.lorem({ maxCount: 40 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }));

const stateArb: fc.Arbitrary<WorkingState> = fc.record({
  plan: fc.option(text, { nil: undefined }),
  summary: fc.option(text, { nil: undefined }),
  items: fc.array(
    fc.record({
      kind: fc.constantFrom(...ITEM_KINDS),
      content: text,
      source: fc.option(fc.constantFrom('runbook.md', 'fact:fct_1', 'https://x.test'), { nil: undefined }),
      priority: fc.integer({ min: 0, max: 10 }),
      addedAt: fc.integer({ min: 0, max: 1000 }),
    }),
    { maxLength: 25 },
  ),
  turns: fc.array(fc.record({ role: fc.constantFrom(...TURN_ROLES), content: text, at: fc.integer({ min: 0, max: 1000 }) }), { maxLength: 12 }),
  entities: fc.array(fc.record({ key: fc.constantFrom('User Name', 'Goal', 'Deadline', 'Using', 'Error'), value: text, updatedAt: fc.integer({ min: 0, max: 1000 }) }), { maxLength: 5 }),
}).map((r) => ({
  ...emptyState(),
  ...r,
  items: r.items.map((i, n) => ({ ...i, id: `x${n + 1}`, ...(i.source === undefined ? {} : { source: i.source }) })),
}));

describe('fitToCap (property)', () => {
  it('never leaves the rendered scratchpad above the cap, whatever the state and cap', () => {
    fc.assert(
      fc.property(stateArb, fc.integer({ min: 20, max: 600 }), (state, maxTokens) => {
        const o = parseWorkingMemoryOptions({ maxTokens });
        const { state: fitted } = fitToCap(state, o, tokens);
        expect(tokens.count(renderState(fitted))).toBeLessThanOrEqual(maxTokens);
        expect(tokens.count(renderState(fitted, { ids: false }))).toBeLessThanOrEqual(maxTokens);
      }),
      { numRuns: 300 },
    );
  });

  it('evicts by priority: nothing kept has a lower priority than anything evicted for the cap', () => {
    fc.assert(
      fc.property(stateArb, fc.integer({ min: 20, max: 600 }), (state, maxTokens) => {
        const o = parseWorkingMemoryOptions({ maxTokens });
        const { state: fitted, evicted } = fitToCap(state, o, tokens);
        const evictedIds = new Set(evicted.filter((e) => e.unit === 'item').map((e) => e.id));
        const gone = state.items.filter((i) => evictedIds.has(i.id));
        const maxGone = Math.max(-1, ...gone.map((i) => i.priority));
        for (const kept of fitted.items) expect(kept.priority).toBeGreaterThanOrEqual(maxGone);
        // Turns (priority 0) leave before any item above 0 does.
        if (fitted.turns.length > 0) expect(gone.every((i) => i.priority === 0)).toBe(true);
        expect(fitted.items.length + gone.length).toBe(state.items.length);
      }),
      { numRuns: 300 },
    );
  });

  it('changes nothing when the state already fits', () => {
    fc.assert(
      fc.property(stateArb, (state) => {
        const o = parseWorkingMemoryOptions({ maxTokens: 200_000 });
        const r = fitToCap(state, o, tokens);
        expect(r.evicted).toEqual([]);
        expect(r.state).toBe(state);
      }),
      { numRuns: 50 },
    );
  });
});

describe('fitToCap (cases)', () => {
  const o = parseWorkingMemoryOptions({ maxTokens: 60 });
  const base = (): WorkingState => ({
    ...emptyState(),
    plan: 'Find why checkout returns 503 and fix it.',
    items: [
      { id: 'n1', kind: 'note', content: 'low priority scribble about lunch plans and other unrelated things', priority: 0, addedAt: 1 },
      { id: 'e2', kind: 'evidence', content: 'pool exhausted at 20 connections', source: 'grafana', priority: 5, addedAt: 2 },
      { id: 'n3', kind: 'note', content: 'older medium note about retries in the client library', priority: 2, addedAt: 3 },
      { id: 'n4', kind: 'note', content: 'newer medium note about the deploy at noon yesterday', priority: 2, addedAt: 4 },
    ],
  });

  it('drops the lowest priority first, then the oldest among equals, and reports each', () => {
    const { state, evicted } = fitToCap(base(), o, tokens);
    expect(evicted.map((e) => e.id)).toEqual(['n1', 'n3']);
    expect(state.items.map((i) => i.id)).toEqual(['e2', 'n4']);
    expect(state.evictedCount).toBe(2);
    expect(tokens.count(renderState(state))).toBeLessThanOrEqual(60);
  });

  it('shortens the summary, then the plan, when nothing else is left to evict', () => {
    const s: WorkingState = { ...emptyState(), plan: 'step '.repeat(40).trim(), summary: 'The user asked about the outage. '.repeat(10).trim() };
    const { state, evicted } = fitToCap(s, parseWorkingMemoryOptions({ maxTokens: 30 }), tokens);
    expect(evicted.map((e) => e.unit)).toEqual(['summary', 'plan']);
    expect(tokens.count(renderState(state))).toBeLessThanOrEqual(30);
    expect(state.plan).toMatch(/^step step/);
  });
});
