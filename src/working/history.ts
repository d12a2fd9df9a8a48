/**
 * Seed 002's strategies for the conversation itself, applied on every new turn:
 *   - entity extraction: the turn's key facts update the state dictionary (when enabled);
 *   - sliding window: only the last `windowTurns` turns stay verbatim; older ones are dropped, or
 *   - summarization: when the window overflows, the oldest `foldTurns` (at least the overflow) are folded into
 *     the running summary in one call, so an LLM summarizer runs once per `foldTurns` turns, not per turn.
 */
import type { TokenCounter } from '../core/tokens.js';
import { clip } from '../learn/text.js';
import { mergeEntities, type EntityExtractor, type EntityUpdate } from './entities.js';
import type { Evicted } from './fit.js';
import type { WorkingMemoryOptions } from './options.js';
import { cloneState, type TurnRole, type WorkingState } from './state.js';
import type { Summarizer } from './summarize.js';

export interface HistoryTools {
  summarizer: Summarizer;
  extractor?: EntityExtractor | undefined;
  tokens: TokenCounter;
}

export interface TurnResult {
  state: WorkingState;
  evicted: Evicted[];
  entities: EntityUpdate[];
}

export async function addTurn(
  state: WorkingState,
  turn: { role: TurnRole; content: string },
  at: number,
  o: WorkingMemoryOptions,
  tools: HistoryTools,
): Promise<TurnResult> {
  const s = cloneState(state);
  const t = { role: turn.role, content: tools.tokens.truncate(turn.content.trim(), o.maxItemTokens), at };
  s.turns.push(t);
  const updates = o.entities && tools.extractor ? await tools.extractor.extract(t, s.entities) : [];
  s.entities = mergeEntities(s.entities, updates, at, o.maxEntities);
  const evicted: Evicted[] = [];
  const overflow = s.turns.length - o.windowTurns;
  if (overflow > 0) {
    const leaving = s.turns.splice(0, o.history === 'summarize' ? Math.max(overflow, o.foldTurns) : overflow);
    if (o.history === 'summarize') s.summary = (await tools.summarizer.summarize(s.summary, leaving, o.summaryMaxTokens)) || undefined;
    const reason = o.history === 'summarize' ? 'folded' : 'window';
    for (const l of leaving) evicted.push({ unit: 'turn', content: clip(`${l.role}: ${l.content}`, 200), reason });
    s.evictedCount += leaving.length;
  }
  return { state: s, evicted, entities: updates };
}
