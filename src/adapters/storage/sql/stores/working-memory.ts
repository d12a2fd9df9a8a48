/** Per-session scratchpads, stored whole under an optimistic version. */
import { EngramError } from '../../../../core/errors.js';
import type { WorkingMemoryRecord } from '../../../../core/types.js';
import type { ScopeFilter } from '../../../../ports/storage.js';
import { toNull } from '../codec.js';
import type { Dialect } from '../dialect.js';
import { allOf, sql } from '../fragment.js';
import { exec, lockTenants, one, type Step } from '../program.js';
import { rowToWorkingMemory, type WorkingMemoryRow } from '../rows-learn.js';

const SELECT = 'SELECT * FROM engram.working_memory WHERE tenant = ? AND session_id = ?';

const live = (r: WorkingMemoryRow | undefined, now: number): WorkingMemoryRow | undefined =>
  r && (r.expires_at === null || r.expires_at > now) ? r : undefined;

/** Undefined when absent or expired at `now`. */
export function* getWorkingMemory(tenant: string, sessionId: string, now: number): Step<WorkingMemoryRecord | undefined> {
  const r = live(yield* one<WorkingMemoryRow>(sql(SELECT, tenant, sessionId)), now);
  return r && rowToWorkingMemory(r);
}

/**
 * Compare-and-set inside one write transaction (validated by the caller): the row is read under the tenant's
 * write lock (and FOR UPDATE where rows lock), so two writers expecting the same version cannot both win. A
 * record whose TTL passed (judged at `rec.updatedAt`) counts as absent, as it does for `getWorkingMemory`:
 * expectedVersion 0 replaces it and numbering starts again at 1.
 */
export function* putWorkingMemory(d: Dialect, rec: Omit<WorkingMemoryRecord, 'version'>, expectedVersion: number): Step<WorkingMemoryRecord> {
  yield* lockTenants([rec.tenant]);
  const current = live(yield* one<WorkingMemoryRow>(sql(`${SELECT}${d.forUpdate}`, rec.tenant, rec.sessionId)), rec.updatedAt);
  const actual = current?.version ?? 0;
  if (actual !== expectedVersion) {
    throw new EngramError('CONFLICT', `working memory of session ${rec.sessionId} is at version ${actual}, not ${expectedVersion}`, {
      issues: [{ path: 'expectedVersion', message: `stored version is ${actual}` }],
      details: { expectedVersion, actualVersion: actual },
    });
  }
  const next: WorkingMemoryRecord = {
    tenant: rec.tenant,
    sessionId: rec.sessionId,
    version: actual + 1,
    state: rec.state,
    updatedAt: rec.updatedAt,
    expiresAt: rec.expiresAt,
  };
  yield* exec(
    sql(
      `INSERT INTO engram.working_memory (tenant, session_id, version, state, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant, session_id) DO UPDATE SET version = excluded.version, state = excluded.state,
         updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
      next.tenant, next.sessionId, next.version, JSON.stringify(next.state), next.updatedAt, toNull(next.expiresAt),
    ),
  );
  return next;
}

export function* deleteWorkingMemory(tenant: string, sessionId: string): Step<boolean> {
  return (yield* exec(sql('DELETE FROM engram.working_memory WHERE tenant = ? AND session_id = ?', tenant, sessionId))) > 0;
}

/**
 * Working memory is keyed by session only, so it is in a scope that names at most a session: a scope that
 * names a user, agent or task cannot match it (as a record without that field never matches). Inside the
 * caller's write transaction.
 */
export function* deleteWorkingMemoryInScope(tenant: string, scope: ScopeFilter): Step<number> {
  if (scope.userId !== undefined || scope.agentId !== undefined || scope.taskId !== undefined) return 0;
  const where = allOf([sql('tenant = ?', tenant), ...(scope.sessionId !== undefined ? [sql('session_id = ?', scope.sessionId)] : [])]);
  return yield* exec({ text: `DELETE FROM engram.working_memory WHERE ${where.text}`, params: where.params });
}
