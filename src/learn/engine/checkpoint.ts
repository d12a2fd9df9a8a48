/**
 * The learner's per-tenant checkpoint: how far it has read the timeline, the reflection trigger's running
 * sums and when the tenant was last consolidated. Kept as a working-memory record under a reserved session id
 * (storage's small per-tenant, optimistically versioned JSON slot), so a restart resumes instead of re-reading.
 * Segmenter state is not here: it lives with the open episodes themselves (episode-record.ts).
 */
import { isEngramError } from '../../core/errors.js';
import type { Json, JsonObject } from '../../core/types.js';
import type { Storage } from '../../ports/storage.js';
import type { TriggerState } from '../reflection.js';

export const LEARNER_SESSION = '__engram_learner__';

export interface Checkpoint {
  cursor: number;
  reflection: TriggerState[];
  consolidatedAt?: number | undefined;
  /** Storage's record version (0 when none was stored yet). */
  version: number;
}

export async function loadCheckpoint(storage: Storage, tenant: string, now: number): Promise<Checkpoint> {
  const rec = await storage.getWorkingMemory(tenant, LEARNER_SESSION, now);
  if (!rec) return { cursor: 0, reflection: [], version: 0 };
  const s = rec.state;
  return {
    cursor: typeof s.cursor === 'number' ? s.cursor : 0,
    reflection: readTriggers(s.reflection),
    consolidatedAt: typeof s.consolidatedAt === 'number' ? s.consolidatedAt : undefined,
    version: rec.version,
  };
}

/** Writes the checkpoint; on a version conflict (another writer) it re-reads the version and writes once more. */
export async function saveCheckpoint(storage: Storage, tenant: string, cp: Checkpoint, now: number): Promise<number> {
  const state: JsonObject = {
    cursor: cp.cursor,
    reflection: cp.reflection.map((t) => ({ key: t.key, sum: t.sum, window: t.window.map((w) => ({ id: w.id, seq: w.seq })) })),
    ...(cp.consolidatedAt !== undefined ? { consolidatedAt: cp.consolidatedAt } : {}),
  };
  try {
    return (await storage.putWorkingMemory({ tenant, sessionId: LEARNER_SESSION, state, updatedAt: now }, cp.version)).version;
  } catch (e) {
    if (!isEngramError(e, 'CONFLICT')) throw e;
    const current = await storage.getWorkingMemory(tenant, LEARNER_SESSION, now);
    return (await storage.putWorkingMemory({ tenant, sessionId: LEARNER_SESSION, state, updatedAt: now }, current?.version ?? 0)).version;
  }
}

function readTriggers(v: Json | undefined): TriggerState[] {
  if (!Array.isArray(v)) return [];
  const out: TriggerState[] = [];
  for (const t of v) {
    if (!t || typeof t !== 'object' || Array.isArray(t) || typeof t.key !== 'string' || typeof t.sum !== 'number' || !Array.isArray(t.window)) continue;
    const window = t.window.flatMap((w) =>
      w && typeof w === 'object' && !Array.isArray(w) && typeof w.id === 'string' && typeof w.seq === 'number' ? [{ id: w.id, seq: w.seq }] : [],
    );
    out.push({ key: t.key, sum: t.sum, window });
  }
  return out;
}
