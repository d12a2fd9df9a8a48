/**
 * Between the segmenter's segments and storage's episodes: the Episode record of a segment, the segmenter
 * state an open (or closing) episode carries so a restart can resume it, and the event views describing needs.
 *
 * Persisted segmenter state (`metadata.segmenter`) holds member ids, seqs, times and labels — never vectors:
 * on restore the centroid is rebuilt from the members' stored embeddings. Members flagged `c: false` (held as
 * off-topic, or without a vector when they were segmented) stay out of it. The only approximation: an event
 * that was held and later released is rebuilt into the centroid only if it was not held at persist time.
 */
import { createHash } from 'node:crypto';
import { ID_PREFIX } from '../../core/ids.js';
import type { Episode, Json, JsonObject, MemoryEvent } from '../../core/types.js';
import type { Storage } from '../../ports/storage.js';
import type { DescribeEvent, EpisodeDescription } from '../describe-episode.js';
import type { OpenReason, Segment, StreamState } from '../segment.js';
import { addToMean } from '../vector.js';
import { clip } from '../text.js';

/** Event types that describe a situation (mirrors `situationOf` in describe-episode.ts). */
const REPORT_TYPES: ReadonlySet<string> = new Set(['message', 'observation', 'error', 'note', 'feedback', 'tool_result']);
/** Types that only follow up on an outcome: an episode starting with one is a late follow-up, not a new task. */
export const FOLLOW_UP_TYPES: ReadonlySet<string> = new Set(['correction', 'feedback', 'outcome']);

export const MAX_FINDINGS = 6;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * An episode's id, derived from its first event: `eps_<ULID>` whose time part is the event's time and whose
 * random part is a hash of tenant and event id. Every event starts at most one episode, so the id is unique,
 * and segmenting the same events again (after a crash) yields the same ids.
 */
export function episodeIdFor(tenant: string, seg: Pick<Segment, 'eventIds' | 'startTs'>): string {
  let t = Math.min(Math.max(0, Math.floor(seg.startTs)), 2 ** 48 - 1);
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  const digest = createHash('sha256').update(`${tenant}\u0000${seg.eventIds[0] ?? ''}`).digest();
  let bits = 0;
  let acc = 0;
  let rand = '';
  for (const byte of digest) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5 && rand.length < 16) {
      rand += CROCKFORD[(acc >> (bits - 5)) & 31]!;
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
    if (rand.length === 16) break;
  }
  return `${ID_PREFIX.episode}_${time}${rand}`;
}

export function isRedacted(e: Pick<MemoryEvent, 'metadata'>): boolean {
  return e.metadata.redacted !== undefined;
}

/** The event whose text `situationOf` reads: the first report-like one. */
export function situationEvent<E extends DescribeEvent>(events: readonly E[]): E | undefined {
  return events.find((e) => REPORT_TYPES.has(e.type) && e.content.trim()) ?? events.find((e) => e.content.trim());
}

export function toDescribeEvent(e: MemoryEvent): DescribeEvent & { seq: number; ts: number; contentHash: string; metadata: JsonObject } {
  return {
    id: e.id,
    type: e.type,
    actor: e.actor,
    content: e.content,
    metadata: e.metadata,
    importance: e.importance,
    tool: e.tool,
    seq: e.seq,
    ts: e.ts,
    contentHash: e.contentHash,
  };
}

/** The events of a segment in timeline order, redacted ones left out (their text is gone). */
export async function loadSegmentEvents(storage: Storage, tenant: string, eventIds: readonly string[]): Promise<MemoryEvent[]> {
  const events = await storage.getEvents(tenant, eventIds);
  return events.filter((e) => !isRedacted(e)).sort((a, b) => a.seq - b.seq);
}

interface PersistedMember {
  id: string;
  seq: number;
  ts: number;
  s?: string;
  /** Part of the centroid. */
  c: boolean;
}

interface PersistedStream {
  members: PersistedMember[];
  held: number[];
  stateLabel?: string;
  closingEventId?: string;
  openedBy: OpenReason;
}

/** The JSON a running episode keeps so the segmenter can resume it. */
export function persistStream(st: StreamState): JsonObject {
  const held = new Set(st.held);
  const members: Json[] = st.members.map((m, i) => ({
    id: m.id,
    seq: m.seq,
    ts: m.ts,
    ...(m.stateLabel ? { s: m.stateLabel } : {}),
    // The segmenter records whether the vector went into the centroid (it drops the vector itself then); a state
    // without the flag (made elsewhere) is read the way the segmenter decides it.
    c: m.inCentroid ?? (m.vector !== undefined && !held.has(i) && !(st.closingEventId !== undefined && m.seq > seqOf(st, st.closingEventId))),
  }));
  return {
    members,
    held: [...st.held],
    ...(st.stateLabel ? { stateLabel: st.stateLabel } : {}),
    ...(st.closingEventId ? { closingEventId: st.closingEventId } : {}),
    openedBy: st.openedBy,
  };
}

function seqOf(st: StreamState, eventId: string): number {
  return st.members.find((m) => m.id === eventId)?.seq ?? Number.POSITIVE_INFINITY;
}

function readPersisted(v: Json | undefined): PersistedStream | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v) || !Array.isArray(v.members)) return undefined;
  const members: PersistedMember[] = [];
  for (const m of v.members) {
    if (!m || typeof m !== 'object' || Array.isArray(m)) return undefined;
    if (typeof m.id !== 'string' || typeof m.seq !== 'number' || typeof m.ts !== 'number') return undefined;
    members.push({ id: m.id, seq: m.seq, ts: m.ts, ...(typeof m.s === 'string' ? { s: m.s } : {}), c: m.c === true });
  }
  const held = Array.isArray(v.held) ? v.held.filter((x): x is number => typeof x === 'number') : [];
  return {
    members,
    held,
    ...(typeof v.stateLabel === 'string' ? { stateLabel: v.stateLabel } : {}),
    ...(typeof v.closingEventId === 'string' ? { closingEventId: v.closingEventId } : {}),
    openedBy: (typeof v.openedBy === 'string' ? v.openedBy : 'stream_start') as OpenReason,
  };
}

/** Rebuilds a stream's segmenter state from its episode, with the centroid from stored embeddings. */
export async function restoreStream(storage: Storage, episode: Episode): Promise<StreamState | undefined> {
  const p = readPersisted(episode.metadata.segmenter);
  if (!p || p.members.length === 0) return undefined;
  const inCentroid = p.members.filter((m) => m.c).map((m) => m.id);
  const events = inCentroid.length ? await storage.getEvents(episode.tenant, inCentroid) : [];
  const vectors = events.length ? await storage.getEmbeddings(events.filter((e) => e.contentHash).map((e) => e.contentHash)) : new Map();
  const byId = new Map(events.map((e) => [e.id, vectors.get(e.contentHash)]));
  let centroid: Float32Array | undefined;
  let vectorCount = 0;
  const members = p.members.map((m) => {
    const vector = m.c ? byId.get(m.id) : undefined;
    if (vector) centroid = addToMean(centroid, vectorCount++, vector);
    // In the centroid now: the segmenter keeps no per-event vector for it (see Member.vector).
    return { id: m.id, seq: m.seq, ts: m.ts, stateLabel: m.s, inCentroid: vector !== undefined };
  });
  const scope = { tenant: episode.tenant, userId: episode.userId, agentId: episode.agentId, sessionId: episode.sessionId, taskId: episode.taskId };
  for (const k of ['userId', 'agentId', 'sessionId', 'taskId'] as const) if (scope[k] === undefined) delete scope[k];
  return {
    streamKey: episode.streamKey,
    scope,
    members,
    stateLabel: p.stateLabel,
    centroid,
    vectorCount,
    held: p.held.filter((i) => i < members.length),
    closingEventId: p.closingEventId,
    openedBy: p.openedBy,
  };
}

export interface EpisodeParts {
  id: string;
  segment: Segment;
  description?: EpisodeDescription | undefined;
  events: readonly MemoryEvent[];
  /** Present while the episode may still grow (open, or closing and waiting for follow-ups). */
  stream?: StreamState | undefined;
  recordedAt: number;
  summaryMethod?: string | undefined;
}

/** A stored episode seen as the segment it was cut as (to describe it again). */
export function segmentOf(e: Episode): Segment {
  const scope = { tenant: e.tenant, userId: e.userId, agentId: e.agentId, sessionId: e.sessionId, taskId: e.taskId };
  for (const k of ['userId', 'agentId', 'sessionId', 'taskId'] as const) if (scope[k] === undefined) delete scope[k];
  const closingEventId = metaString(e.metadata, 'closingEventId');
  return {
    streamKey: e.streamKey,
    scope,
    eventIds: [...e.eventIds],
    startSeq: e.startSeq,
    endSeq: e.endSeq,
    startTs: e.startTs,
    endTs: e.endTs,
    stateLabel: e.stateLabel,
    vectorCount: 0,
    status: e.closed ? (e.metadata.segmenter !== undefined ? 'closing' : 'closed') : 'open',
    openedBy: (metaString(e.metadata, 'openedBy') ?? 'stream_start') as OpenReason,
    closedBy: metaString(e.metadata, 'closedBy') as Segment['closedBy'],
    closingEventId,
  };
}

/** The Episode record of a segment. `closed` once its outcome was seen or a boundary ended it. */
export function episodeRecord(p: EpisodeParts): Episode {
  const { segment: seg, description: d } = p;
  const situation = situationEvent(p.events.map(toDescribeEvent));
  const metadata: JsonObject = {
    openedBy: seg.openedBy,
    ...(seg.closedBy ? { closedBy: seg.closedBy } : {}),
    ...(seg.closingEventId ? { closingEventId: seg.closingEventId } : {}),
    ...(situation ? { situationEventId: situation.id } : {}),
    ...(d?.situation ? { situation: d.situation } : {}),
    ...(d ? { findings: findingsFor(p.events, situation?.id) } : {}),
    ...(d ? { corrected: d.corrections.length > 0, hasRootCause: d.rootCause !== undefined } : {}),
    ...(p.summaryMethod ? { summaryMethod: p.summaryMethod } : {}),
    ...(p.stream ? { segmenter: persistStream(p.stream) } : {}),
  };
  return {
    id: p.id,
    ...seg.scope,
    streamKey: seg.streamKey,
    startSeq: seg.startSeq,
    endSeq: seg.endSeq,
    startTs: seg.startTs,
    // The segmenter may have seen a late outcome at an earlier time (consume.ts); the record keeps the real one.
    endTs: Math.max(seg.endTs, ...p.events.map((e) => e.ts)),
    eventIds: [...seg.eventIds],
    stateLabel: seg.stateLabel,
    summary: d?.summary ?? '',
    outcome: d?.outcome ?? 'UNKNOWN',
    outcomeDetails: d?.outcomeDetails,
    decisions: d?.decisions ?? [],
    assumptions: d?.assumptions ?? [],
    corrections: d?.corrections ?? [],
    rootCause: d?.rootCause,
    importance: d?.importance ?? 0,
    closed: seg.status !== 'open',
    metadata,
    recordedAt: p.recordedAt,
  };
}

/** What the investigation found (report-like events after the situation, before the outcome), bounded. */
function findingsFor(events: readonly MemoryEvent[], situationId: string | undefined): Json[] {
  const end = events.findIndex((e) => e.type === 'outcome');
  return events
    .slice(0, end < 0 ? events.length : end)
    .filter((e) => e.id !== situationId && REPORT_TYPES.has(e.type) && e.content.trim())
    .slice(0, MAX_FINDINGS)
    .map((e) => clip(e.content, 240));
}

/** Strings stored under a metadata key (e.g. `findings`). */
export function metaStrings(metadata: JsonObject, key: string): string[] {
  const v = metadata[key];
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function metaString(metadata: JsonObject, key: string): string | undefined {
  const v = metadata[key];
  return typeof v === 'string' ? v : undefined;
}
