/** Working memory (seeds 002 and 004): a bounded per-session scratchpad with priority eviction and self-editing. */
export { createWorkingMemoryApi, type WorkingMemoryApi, type WorkingMemoryView, type EditResult } from './api.js';
export { parseWorkingMemoryOptions, workingMemoryOptionsSchema, type WorkingMemoryOptions, type WorkingMemoryOptionsInput } from './options.js';
export { renderState, type RenderOptions } from './render.js';
export type { Evicted, EvictedUnit } from './fit.js';
export type { SessionRef } from './input.js';
export type { WmItem, WmTurn, WmEntity, WorkingState, ItemKind, TurnRole } from './state.js';
export type { EntityUpdate, EntityExtractor } from './entities.js';
export type { Summarizer } from './summarize.js';
