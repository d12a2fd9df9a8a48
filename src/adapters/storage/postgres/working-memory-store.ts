/** Per-session scratchpads, stored whole under an optimistic version. */
import { EngramError } from '../../../core/errors.js';
import type { WorkingMemoryRecord } from '../../../core/types.js';
import { rowToWorkingMemory, type WorkingMemoryRow } from '../sql/rows-learn.js';
import { assertWorkingMemory } from '../sql/validate-learn.js';
import type { PgContext } from './context.js';
import { toNull } from '../sql/rows.js';
import { sql } from './sql.js';

const SELECT = 'SELECT * FROM engram.working_memory WHERE tenant = ? AND session_id = ?';

const live = (r: WorkingMemoryRow | undefined, now: number): WorkingMemoryRow | undefined =>
  r && (r.expires_at === null || r.expires_at > now) ? r : undefined;

/** Undefined when absent or expired at `now`. */
export async function getWorkingMemory(ctx: PgContext, tenant: string, sessionId: string, now: number): Promise<WorkingMemoryRecord | undefined> {
  const r = live(await ctx.db.one<WorkingMemoryRow>(sql(SELECT, tenant, sessionId)), now);
  return r && rowToWorkingMemory(r);
}

/**
 * Compare-and-set: the row is read FOR UPDATE (and a missing one is serialised by the tenant lock), so two
 * writers expecting the same version cannot both win. A record whose TTL passed (judged at
 * `rec.updatedAt`) counts as absent: expectedVersion 0 replaces it and numbering starts again at 1.
 */
export async function putWorkingMemory(ctx: PgContext, rec: Omit<WorkingMemoryRecord, 'version'>, expectedVersion: number): Promise<WorkingMemoryRecord> {
  assertWorkingMemory(rec, expectedVersion);
  return ctx.db.tx('putWorkingMemory', async (tx) => {
    await tx.lockTenants([rec.tenant]);
    const current = live(await tx.one<WorkingMemoryRow>(sql(`${SELECT} FOR UPDATE`, rec.tenant, rec.sessionId)), rec.updatedAt);
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
    await tx.exec(
      sql(
        `INSERT INTO engram.working_memory (tenant, session_id, version, state, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant, session_id) DO UPDATE SET version = excluded.version, state = excluded.state,
           updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
        next.tenant, next.sessionId, next.version, JSON.stringify(next.state), next.updatedAt, toNull(next.expiresAt),
      ),
    );
    return next;
  });
}

export async function deleteWorkingMemory(ctx: PgContext, tenant: string, sessionId: string): Promise<boolean> {
  return ctx.db.tx('deleteWorkingMemory', async (tx) => (await tx.exec(sql('DELETE FROM engram.working_memory WHERE tenant = ? AND session_id = ?', tenant, sessionId))) > 0);
}
