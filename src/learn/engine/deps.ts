/**
 * What the learn engine is built from. Instances are passed in (storage, embedder, optional LLM, clock); the
 * engine never reads configuration beyond the parsed `LearnSettings` it is given.
 */
import type { Clock } from '../../ports/clock.js';
import type { Embedder } from '../../ports/embedder.js';
import type { Llm } from '../../ports/llm.js';
import type { Storage } from '../../ports/storage.js';
import type { FactPolicy } from '../../core/predicates.js';
import type { LearnSettings } from './options.js';

export interface LearnDeps {
  storage: Storage;
  clock: Clock;
  settings: LearnSettings;
  /** Embeds situations for RETRY_OF and procedure matching when stored vectors are missing; optional. */
  embedder?: Embedder | undefined;
  /** Summaries, extraction and reflection use it when present; heuristics otherwise. */
  llm?: Llm | undefined;
  /** Conflict strategies per predicate (engine config `facts`), for the facts consolidation distils. */
  factPolicy?: FactPolicy | undefined;
  /** Background failures (a learner run that threw). */
  onError?: ((error: unknown) => void) | undefined;
}
