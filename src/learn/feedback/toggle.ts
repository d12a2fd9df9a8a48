/**
 * Seed 003's manual feedback rules, on one query → response pair in one scope:
 *   - no example yet            → store it with the given polarity            (`created`)
 *   - same feedback again       → delete the stored example                   (`deleted`)
 *   - the other feedback        → the stored example changes type in place    (`flipped`)
 * Inferred feedback (conversation analysis) never deletes and never overrides what a user clicked: it
 * creates, leaves an equal example alone, or flips only an example that analysis itself created.
 *
 * The pair is found by its content hash (scrubbed query + response) in exactly the caller's scope, which the
 * storage keeps unique. Two clicks racing on a pair that has no example yet both try to create it: the loser
 * gets CONFLICT from that unique index and replays its click against the winner's example, which is what the
 * user did (clicked twice).
 */
import { isEngramError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { contentHash } from '../../core/text.js';
import type { Example, ExamplePolarity, Scope } from '../../core/types.js';
import type { ScopeFilter } from '../../ports/storage.js';
import type { LearnDeps } from './deps.js';

export type FeedbackAction = 'created' | 'deleted' | 'flipped';
export type InferredAction = 'created' | 'unchanged' | 'flipped' | 'kept_user_feedback';

export interface FeedbackResult {
  action: FeedbackAction;
  /** The stored example after the action; for `deleted`, the example as it was. */
  example: Example;
}

export interface Pair {
  query: string;
  response: string;
  polarity: ExamplePolarity;
  reason?: string | undefined;
}

const MAX_RACE_RETRIES = 3;

export function pairHash(query: string, response: string): string {
  return contentHash(query, response);
}

function scopeFilterOf(scope: Scope): ScopeFilter {
  return { userId: scope.userId, agentId: scope.agentId, sessionId: scope.sessionId, taskId: scope.taskId };
}

function newExample(deps: LearnDeps, scope: Scope, pair: Pair, origin: Example['origin']): Example {
  return {
    id: newId('example'),
    ...scope,
    polarity: pair.polarity,
    query: pair.query,
    response: pair.response,
    reason: pair.reason,
    origin,
    contentHash: pairHash(pair.query, pair.response),
    createdAt: deps.clock.now(),
  };
}

/** Retries `step` when a concurrent writer created the same pair first (CONFLICT on the unique pair index). */
async function withRaceRetry<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (e) {
      if (!isEngramError(e, 'CONFLICT') || attempt >= MAX_RACE_RETRIES) throw e;
    }
  }
}

/** The pair's example and whether it was already stored in the scope (`existing`) or has just been stored (`created`). */
export interface FoundExample {
  status: 'existing' | 'created';
  example: Example;
}

/** The pair's example in the scope, if there is one; else a new one of `origin`, stored (and the indexer told). */
export async function findOrCreate(deps: LearnDeps, scope: Scope, pair: Pair, origin: Example['origin']): Promise<FoundExample> {
  const existing = await deps.storage.findExample(scope.tenant, scopeFilterOf(scope), pairHash(pair.query, pair.response));
  if (existing) return { status: 'existing', example: existing };
  const created = newExample(deps, scope, pair, origin);
  await deps.storage.putExample(created);
  deps.notifyIndexer();
  return { status: 'created', example: created };
}

/** Applies one explicit feedback click. `pair` texts must already be scrubbed. */
export function toggleFeedback(deps: LearnDeps, scope: Scope, pair: Pair): Promise<FeedbackResult> {
  return withRaceRetry(async () => {
    const found = await findOrCreate(deps, scope, pair, 'feedback');
    if (found.status === 'created') return { action: 'created', example: found.example };
    const existing = found.example;
    if (existing.polarity === pair.polarity) {
      await deps.storage.deleteExample(scope.tenant, existing.id);
      return { action: 'deleted', example: existing };
    }
    // A click is the user's own judgement: from now on the example is theirs, whoever created it.
    const example: Example = { ...existing, polarity: pair.polarity, reason: pair.reason ?? existing.reason, origin: 'feedback' };
    await deps.storage.putExample(example);
    return { action: 'flipped', example };
  });
}

/** Records feedback inferred from a conversation, without ever undoing what a user said explicitly. */
export function recordInferred(deps: LearnDeps, scope: Scope, pair: Pair): Promise<{ action: InferredAction; example: Example }> {
  return withRaceRetry(async () => {
    const found = await findOrCreate(deps, scope, pair, 'analysis');
    if (found.status === 'created') return { action: 'created' as const, example: found.example };
    const existing = found.example;
    if (existing.polarity === pair.polarity) return { action: 'unchanged' as const, example: existing };
    if (existing.origin === 'feedback') return { action: 'kept_user_feedback' as const, example: existing };
    const example: Example = { ...existing, polarity: pair.polarity, reason: pair.reason ?? existing.reason };
    await deps.storage.putExample(example);
    return { action: 'flipped' as const, example };
  });
}
