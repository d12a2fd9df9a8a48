/**
 * The learner's per-tenant state: loaded once per tenant from the checkpoint (checkpoint.ts) and the stored
 * running episodes (their segmenter resume state, episode-record.ts), then kept in memory by the Learner
 * (learner.ts) and checkpointed after the runs that moved it.
 */
import type { Episode } from '../../core/types.js';
import { ReflectionTrigger } from '../reflection.js';
import { Segmenter, type Segment, type StreamState } from '../segment.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import type { EngineContext } from './context.js';
import { restoreStream } from './episode-record.js';
import { RecentEpisodes } from './links.js';

export interface TenantState {
  segmenter: Segmenter;
  /** streamKey → id of the episode the running segment is persisted as. */
  openIds: Map<string, string>;
  /** streamKey → seq and time of the last event the segmenter took (restored streams included). */
  lastSeq: Map<string, number>;
  lastTs: Map<string, number>;
  /** streamKey → the episode the size cap just closed; the stream's next episode continues it. */
  cutFrom: Map<string, { seg: Segment; id: string }>;
  cursor: number;
  newestTs: number;
  /** Recently closed episodes, for RETRY_OF / LEARNED_FROM look-backs. */
  recent: RecentEpisodes;
  trigger: ReflectionTrigger;
  consolidatedAt?: number | undefined;
  checkpointVersion: number;
}

export async function loadTenantState(ctx: EngineContext, tenant: string): Promise<TenantState> {
  const { storage, settings } = ctx;
  const cp = await loadCheckpoint(storage, tenant, ctx.clock.now());
  const open = await storage.listEpisodes({ tenant, closed: false });
  const recent = await storage.listEpisodes({ tenant, closed: true, order: 'desc', limit: 100 });
  const resumable = [...open, ...recent.filter((e) => e.metadata.segmenter !== undefined)];
  // One running episode per stream: the latest wins if an interrupted run left two.
  const byStream = new Map<string, Episode>();
  for (const e of resumable) if ((byStream.get(e.streamKey)?.endSeq ?? -1) < e.endSeq) byStream.set(e.streamKey, e);
  const streams: StreamState[] = [];
  const openIds = new Map<string, string>();
  for (const e of byStream.values()) {
    const st = await restoreStream(storage, e);
    if (!st) continue;
    streams.push(st);
    openIds.set(e.streamKey, e.id);
  }
  const lastSeq = new Map(streams.map((s) => [s.streamKey, s.members.at(-1)!.seq]));
  const lastTs = new Map(streams.map((s) => [s.streamKey, s.members.at(-1)!.ts]));
  const running = [...byStream.values()];
  return {
    segmenter: Segmenter.restore(streams, settings.segment),
    openIds,
    lastSeq,
    lastTs,
    cutFrom: new Map(),
    recent: await RecentEpisodes.load(storage, tenant, settings.engine.extractWindow),
    // The running episodes are written with the checkpoint; events past it are read again (ids make it safe).
    cursor: Math.max(cp.cursor, ...running.map((e) => e.endSeq)),
    newestTs: Math.max(0, ...[...open, ...recent].map((e) => e.endTs)),
    trigger: ReflectionTrigger.restore(cp.reflection, settings.reflection),
    consolidatedAt: cp.consolidatedAt,
    checkpointVersion: cp.version,
  };
}

export async function checkpointTenant(ctx: EngineContext, tenant: string, st: TenantState): Promise<void> {
  st.checkpointVersion = await saveCheckpoint(
    ctx.storage,
    tenant,
    { cursor: st.cursor, reflection: st.trigger.state(), consolidatedAt: st.consolidatedAt, version: st.checkpointVersion },
    ctx.clock.now(),
  );
}
