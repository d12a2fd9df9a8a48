/** Per-session scratchpads, stored whole under an optimistic version. */
import { EngramError } from '../../../core/errors.js';
import type { WorkingMemoryRecord } from '../../../core/types.js';
import type { ScopeFilter } from '../../../ports/storage.js';
import type { StoreContext } from './context.js';
import { toNull } from '../sql/rows.js';
import { allOf, sql } from './sql.js';
import { rowToWorkingMemory, type WorkingMemoryRow } from '../sql/rows-learn.js';
import { assertWorkingMemory } from '../sql/validate-learn.js';

const SELECT = 'SELECT * FROM working_memory WHERE tenant = ? AND session_id = ?';

const live = (r: WorkingMemoryRow | undefined, now: number): WorkingMemoryRow | undefined =>
  r && (r.expires_at === null || r.expires_at > now) ? r : undefined;

/** Undefined when absent or expired at `now`. */
export function getWorkingMemory(ctx: StoreContext, tenant: string, sessionId: string, now: number): WorkingMemoryRecord | undefined {
  const r = live(ctx.stmts.get(SELECT).get(tenant, sessionId) as WorkingMemoryRow | undefined, now);
  return r && rowToWorkingMemory(r);
}

/**
 * Compare-and-set inside one write transaction. A record whose TTL passed (judged at `rec.updatedAt`) counts
 * as absent, as it does for `getWorkingMemory`: expectedVersion 0 replaces it and numbering starts again at 1.
 */
export function putWorkingMemory(ctx: StoreContext, rec: Omit<WorkingMemoryRecord, 'version'>, expectedVersion: number): WorkingMemoryRecord {
  assertWorkingMemory(rec, expectedVersion);
  return ctx.write(() => {
    const current = live(ctx.stmts.get(SELECT).get(rec.tenant, rec.sessionId) as WorkingMemoryRow | undefined, rec.updatedAt);
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
    ctx.stmts
      .get(
        `INSERT INTO working_memory (tenant, session_id, version, state, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant, session_id) DO UPDATE SET version = excluded.version, state = excluded.state,
           updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
      )
      .run(next.tenant, next.sessionId, next.version, JSON.stringify(next.state), next.updatedAt, toNull(next.expiresAt));
    return next;
  });
}

export function deleteWorkingMemory(ctx: StoreContext, tenant: string, sessionId: string): boolean {
  return ctx.write(() => ctx.stmts.get('DELETE FROM working_memory WHERE tenant = ? AND session_id = ?').run(tenant, sessionId).changes > 0);
}

/**
 * Working memory is keyed by session only, so it is in a scope that names at most a session: a scope that
 * names a user, agent or task cannot match it (as a record without that field never matches). For callers inside a write transaction.
 */
export function deleteWorkingMemoryInScope(ctx: StoreContext, tenant: string, scope: ScopeFilter): number {
  if (scope.userId !== undefined || scope.agentId !== undefined || scope.taskId !== undefined) return 0;
  const where = allOf([sql('tenant = ?', tenant), ...(scope.sessionId !== undefined ? [sql('session_id = ?', scope.sessionId)] : [])]);
  return ctx.stmts.get(`DELETE FROM working_memory WHERE ${where.text}`).run(...where.params).changes;
}
