/**
 * The scopes a read runs with (docs/scopes.md). The caller names who is asking (user, agent, session); in
 * 'layered' mode the episodic window reads that session and semantic memory reads the user's, the agent's and
 * the shared layers (storage's `scope.layers`); in 'strict' mode every field given must match exactly. The
 * task id always narrows exactly.
 */
import type { ContextConfig, ScopeMode } from '../core/config.js';
import { EngramError } from '../core/errors.js';
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

const SCOPE_FIELDS = [
  ['user_id', 'userId'],
  ['agent_id', 'agentId'],
  ['session_id', 'sessionId'],
] as const;

/** The request scope narrowed by the config's scope; the two must not disagree. */
export function mergeScope(requestScope: ScopeFilter | undefined, configScope: ContextConfig['scope']): ScopeFilter {
  // Absent and undefined are the same here; storage sees only fields that narrow.
  const scope: ScopeFilter = Object.fromEntries(Object.entries(requestScope ?? {}).filter(([, v]) => v !== undefined));
  for (const [snake, camel] of SCOPE_FIELDS) {
    const value = configScope?.[snake];
    if (value === undefined) continue;
    if (scope[camel] !== undefined && scope[camel] !== value) {
      throw new EngramError('VALIDATION', `scope.${snake} (${value}) contradicts the request scope (${scope[camel]})`, {
        issues: [{ path: `scope.${snake}`, message: 'differs from the request scope' }],
      });
    }
    scope[camel] = value;
  }
  return scope;
}
