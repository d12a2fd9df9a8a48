/**
 * The scopes a read runs with (docs/scopes.md). The caller names who is asking (user, agent, session); in
 * 'layered' mode the episodic window reads that session and semantic memory reads the user's, the agent's and
 * the shared layers (storage's `scope.layers`); in 'strict' mode every field given must match exactly. The
 * task id always narrows exactly.
 */
import type { ScopeMode } from '../core/config.js';
import type { Layers, ScopeFilter } from '../ports/storage.js';

export interface ReadScopes {
  /** Who is asking: labels each item with its layer. */
  identity: Layers;
  /** For semantic retrieval (searches, expansion, hops). */
  semantic: ScopeFilter;
  /** For the episodic window. */
  window: ScopeFilter;
}

const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function readScopes(scope: ScopeFilter | undefined, mode: ScopeMode = 'layered'): ReadScopes {
  const s = scope ?? {};
  const identity: Layers = defined({ userId: s.userId, agentId: s.agentId, sessionId: s.sessionId });
  if (mode === 'strict') {
    const exact = defined({ ...identity, taskId: s.taskId });
    return { identity, semantic: exact, window: exact };
  }
  const task = defined({ taskId: s.taskId });
  return {
    identity,
    semantic: { ...task, layers: identity },
    window: { ...task, ...defined({ sessionId: identity.sessionId }), layers: identity },
  };
}
