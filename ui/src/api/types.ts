/**
 * The REST API's records as the inspector reads them: the types generated from the served OpenAPI document
 * (src/client/schema.ts, the same ones the typed client `engram/client` uses), so a change of the API that
 * the views do not follow fails the inspector's type check. Wire casing: snake_case keys, ISO-8601 times.
 */
import type { components } from '../../../src/client/schema';

type Schemas = components['schemas'];

/** The event types and document kinds, from the engine's own data model (one list for the engine and the inspector). */
export { DOC_KINDS, EVENT_TYPES, type DocKind, type EventType } from '../../../src/core/types';

/** The score breakdown's named parts after the weighted sum, from the engine's registry (one list for both). */
export { LIFT_NAMES, LIFTS, type Lift } from '../../../src/read/lifts';


export type MemoryEvent = Schemas['Event'];

export type Fact = Schemas['Fact'];

export type RememberResult = Schemas['RememberResult'];

export type ScoreBreakdown = Schemas['ScoreBreakdown'];

export type SearchHit = Schemas['SearchHit'];

export type ContextItem = ContextResult['items'][number];

export type ContextResult = Schemas['ContextResult'];

export type ForgetReport = Schemas['ForgetReport'];

/** The scope filters shared by the filter forms. */
export interface ScopeQuery {
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  task_id?: string;
}
