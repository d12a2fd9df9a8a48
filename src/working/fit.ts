/**
 * The cap (seed 004's bounded working memory): after every change the rendered scratchpad must fit
 * `maxTokens`. While it does not, the unit with the lowest priority goes, the oldest first on a tie (turns,
 * items and key facts alike, each with its own priority). Turns dropped here are not folded into the summary:
 * folding adds to the summary about what it removes, so it would not make room; the history strategy
 * (history.ts) is where turns are summarised. If plan and summary alone still exceed the cap, the summary is
 * shortened first, then the plan. The result is always within the cap, whatever the input.
 *
 * Counting the whole render after every removal is quadratic (300 items over a 2,000-token cap took 9 s), so
 * removal runs in passes: within a pass units go without a recount while the running estimate (each unit's own
 * line tokens subtracted) stays above the cap — a little above it on the first pass — and each pass ends with an
 * exact count. Every pass takes the same priority order, so the estimate can only change how many go (a line
 * more, at worst), never which go first.
 */
import type { TokenCounter } from '../core/tokens.js';
import { clip } from '../learn/text.js';
import type { WorkingMemoryOptions } from './options.js';
import { entityLine, itemLine, renderState, turnLine } from './render.js';
import { cloneState, type WorkingState } from './state.js';

export type EvictedUnit = 'item' | 'turn' | 'entity' | 'summary' | 'plan';

export interface Evicted {
  unit: EvictedUnit;
  /** Item id, or the key of a key fact. */
  id?: string | undefined;
  /** What was removed (clipped for the report). */
  content: string;
  /** `cap`: evicted to fit the token cap; `window`: left the sliding window; `folded`: summarised. */
  reason: 'cap' | 'window' | 'folded';
  /** The unit was shortened rather than removed (summary, plan). */
  truncated?: boolean | undefined;
}

interface Unit {
  unit: 'item' | 'turn' | 'entity';
  ref: object;
  priority: number;
  at: number;
  rank: number;
}

const REPORT_CHARS = 200;
/** How far above the cap the estimate must stay for the bulk phase to keep going without a recount. */
const SLACK_TOKENS = 16;
const SLACK_SHARE = 0.02;
const UNIT_RANK = { turn: 0, item: 1, entity: 2 } as const;

function units(s: WorkingState, o: WorkingMemoryOptions): Unit[] {
  const all: Unit[] = [
    ...s.turns.map((t) => ({ unit: 'turn' as const, ref: t, priority: o.priorities.turn, at: t.at, rank: UNIT_RANK.turn })),
    ...s.items.map((i) => ({ unit: 'item' as const, ref: i, priority: i.priority, at: i.addedAt, rank: UNIT_RANK.item })),
    ...s.entities.map((e) => ({ unit: 'entity' as const, ref: e, priority: o.priorities.entity, at: e.updatedAt, rank: UNIT_RANK.entity })),
  ];
  return all.sort((a, b) => a.priority - b.priority || a.at - b.at || a.rank - b.rank);
}

/** A unit's own tokens in the render (its line and the line break before it). */
function cost(u: Unit, tokens: TokenCounter): number {
  const line =
    u.unit === 'turn'
      ? turnLine(u.ref as WorkingState['turns'][number])
      : u.unit === 'item'
        ? itemLine(u.ref as WorkingState['items'][number], true)
        : entityLine(u.ref as WorkingState['entities'][number]);
  return tokens.count(line) + 1;
}

function remove(s: WorkingState, u: Unit): Evicted {
  if (u.unit === 'turn') {
    s.turns = s.turns.filter((t) => t !== u.ref);
    const t = u.ref as WorkingState['turns'][number];
    return { unit: 'turn', content: clip(`${t.role}: ${t.content}`, REPORT_CHARS), reason: 'cap' };
  }
  if (u.unit === 'item') {
    s.items = s.items.filter((i) => i !== u.ref);
    const i = u.ref as WorkingState['items'][number];
    return { unit: 'item', id: i.id, content: clip(i.content, REPORT_CHARS), reason: 'cap' };
  }
  s.entities = s.entities.filter((e) => e !== u.ref);
  const e = u.ref as WorkingState['entities'][number];
  return { unit: 'entity', id: e.key, content: clip(e.value, REPORT_CHARS), reason: 'cap' };
}

/** Shortens `field` (summary or plan) until the render fits, or removes it when nothing of it can. */
function shrink(s: WorkingState, field: 'summary' | 'plan', tokens: TokenCounter, max: number): Evicted | undefined {
  const full = s[field];
  if (!full) return undefined;
  s[field] = undefined;
  const base = tokens.count(renderState(s));
  let budget = max - base;
  while (budget > 0) {
    const cut = tokens.truncate(full, budget);
    if (cut.trim() === '') break;
    s[field] = cut;
    const over = tokens.count(renderState(s)) - max;
    if (over <= 0) return { unit: field, content: clip(full, REPORT_CHARS), reason: 'cap', truncated: true };
    s[field] = undefined;
    budget -= Math.max(1, over);
  }
  return { unit: field, content: clip(full, REPORT_CHARS), reason: 'cap' };
}

export function fitToCap(state: WorkingState, o: WorkingMemoryOptions, tokens: TokenCounter): { state: WorkingState; evicted: Evicted[] } {
  const max = o.maxTokens;
  if (tokens.count(renderState(state)) <= max) return { state, evicted: [] };
  const s = cloneState(state);
  const evicted: Evicted[] = [];
  const queue = units(s, o);
  const slack = Math.max(SLACK_TOKENS, Math.ceil(SLACK_SHARE * max));
  let next = 0;
  let exact = tokens.count(renderState(s));
  for (let pass = 0; exact > max && next < queue.length; pass++) {
    // At least one unit per pass; the first pass stops a little above the cap, later ones at it.
    let estimate = exact;
    do {
      const u = queue[next++]!;
      estimate -= cost(u, tokens);
      evicted.push(remove(s, u));
    } while (next < queue.length && estimate > max + (pass === 0 ? slack : 0));
    exact = tokens.count(renderState(s));
  }
  for (const field of ['summary', 'plan'] as const) {
    if (tokens.count(renderState(s)) <= max) break;
    const e = shrink(s, field, tokens, max);
    if (e) evicted.push(e);
  }
  s.evictedCount += evicted.filter((e) => !e.truncated).length;
  return { state: s, evicted };
}
