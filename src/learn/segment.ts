/**
 * Online episode segmentation. Events arrive one at a time per stream (tenant + session + task); each gets a
 * decision: it continues the running episode, or a boundary falls before it. Signals, strongest first:
 *
 *  1. explicit — an `outcome` event closes its episode *after* it, yet `correction`/`feedback` events arriving
 *     next still join (a correction belongs to the outcome it corrects); a `state_change` event or
 *     `metadata.episode === 'start'` starts one; `metadata.episode === 'end'` ends one after the event;
 *  2. state_change — both the episode and the event carry a state label and they differ;
 *  3. time_gap — the pause since the episode's last event exceeds `gapMs`;
 *  4. semantic_shift — the event's vector is farther than `shiftDistance` (cosine distance) from the running
 *     centroid, once the centroid rests on `minEventsForShift` vectors. Hysteresis: an off-topic event is only
 *     held; the split happens when `shiftPatience` consecutive events are off-topic, and then falls before the
 *     first of them, which is carried into the new episode. An on-topic event in between releases the hold (the
 *     odd event stays, but never enters the centroid).
 *
 * A prototype lesson: there a boundary needed a state change, so a stream in one state never split. Here the
 * explicit outcome signal and the time gap split such a stream on their own.
 *
 * Pure and deterministic: no clock, no I/O. Storage persists what `closed`/`current` report.
 */
import { EngramError } from '../core/errors.js';
import type { MemoryEvent, Scope } from '../core/types.js';
import { parseLearnOptions, type SegmenterOptions } from './options.js';
import { addToMean, cosineDistance } from './vector.js';

export type BoundaryReason = 'state_change' | 'semantic_shift' | 'time_gap' | 'explicit';
/** Why a segment began: a boundary, or it is the first of its stream. */
export type OpenReason = BoundaryReason | 'stream_start';
/** Why a segment ended: the boundary after it, `episode: 'end'` (explicit), or the caller (`flushed`, `idle`). */
export type CloseReason = BoundaryReason | 'flushed' | 'idle';

/** The fields of an event the segmenter reads. */
export type SegmentEvent = Pick<MemoryEvent, 'id' | 'seq' | 'ts' | 'type' | 'tenant'> &
  Partial<Pick<MemoryEvent, 'stateLabel' | 'metadata' | 'userId' | 'agentId' | 'sessionId' | 'taskId'>>;

/** A snapshot of one segment. Copies: mutating it does not touch the segmenter. */
export interface Segment {
  streamKey: string;
  scope: Scope;
  eventIds: string[];
  startSeq: number;
  endSeq: number;
  startTs: number;
  endTs: number;
  /** The first state label seen in the segment. */
  stateLabel?: string | undefined;
  /** Mean of the on-topic event vectors (held and odd events excluded). */
  centroid?: Float32Array | undefined;
  vectorCount: number;
  /** `closing`: an outcome was seen; only follow-ups (corrections, feedback) may still join. */
  status: 'open' | 'closing' | 'closed';
  openedBy: OpenReason;
  closedBy?: CloseReason | undefined;
  /** The event whose outcome/end marker closed (or is closing) the segment. */
  closingEventId?: string | undefined;
}

export interface SegmentDecision {
  action: 'continue' | 'boundary';
  /** Set when `action` is `boundary`. */
  reason?: BoundaryReason | undefined;
  /** Human-readable why, e.g. `state "triage" → "rollout"` or `distance 0.91 > 0.85 for 2 events`. */
  detail: string;
  streamKey: string;
  /** Segments this event closed, oldest first: the previous one at a boundary, this one on `episode: 'end'`. */
  closed: Segment[];
  /** Events moved out of the closed segment into the new one, because the shift began before this event. */
  carried: string[];
  /** The running segment after this event; undefined when the event ended it. */
  current?: Segment | undefined;
}

interface Member {
  id: string;
  seq: number;
  ts: number;
  stateLabel?: string | undefined;
  /**
   * The event's vector, kept only while the event is held (a shift may still carry it into the next centroid).
   * Once it joined the centroid, or the hold was released, it is dropped: a long-running stream would otherwise
   * keep one vector per event in memory (and copy them all on every `state()`).
   */
  vector?: Float32Array | undefined;
  /** The vector was added to the centroid (undefined in states made before this flag: see persistStream). */
  inCentroid?: boolean | undefined;
}

/** The segmenter's internal state of one stream; exported so storage can persist and `restore` it. */
export interface StreamState {
  streamKey: string;
  scope: Scope;
  members: Member[];
  stateLabel?: string | undefined;
  centroid?: Float32Array | undefined;
  vectorCount: number;
  /** Members held as possibly off-topic (indexes into `members`, ascending). */
  held: number[];
  closingEventId?: string | undefined;
  openedBy: OpenReason;
}

/** Default stream identity: tenant + session + task. */
export function defaultStreamKey(e: Pick<SegmentEvent, 'tenant' | 'sessionId' | 'taskId'>): string {
  return JSON.stringify([e.tenant, e.sessionId ?? null, e.taskId ?? null]);
}

export class Segmenter {
  readonly options: SegmenterOptions;
  private readonly keyOf: (e: SegmentEvent) => string;
  private readonly streams = new Map<string, StreamState>();
  private readonly lastSeq = new Map<string, number>();

  constructor(options?: unknown, hooks: { streamKey?: (e: SegmentEvent) => string } = {}) {
    this.options = parseLearnOptions('segment', options);
    this.keyOf = hooks.streamKey ?? defaultStreamKey;
  }

  /** Rebuilds a segmenter from persisted stream states (e.g. after a restart). */
  static restore(states: readonly StreamState[], options?: unknown, hooks?: { streamKey?: (e: SegmentEvent) => string }): Segmenter {
    const s = new Segmenter(options, hooks);
    for (const st of states) {
      const copy = cloneState(st);
      s.streams.set(st.streamKey, copy);
      const last = copy.members.at(-1);
      if (last) s.lastSeq.set(st.streamKey, last.seq);
    }
    return s;
  }

  /** Feeds one event (and optionally its embedding). Events of a stream must come in increasing `seq`. */
  push(event: SegmentEvent, vector?: Float32Array): SegmentDecision {
    const key = this.keyOf(event);
    this.checkOrder(key, event);
    const member: Member = { id: event.id, seq: event.seq, ts: event.ts, stateLabel: event.stateLabel || undefined, vector };
    const st = this.streams.get(key);
    if (!st || st.members.length === 0) {
      return this.startWith(key, event, [member], 'stream_start', [], 'first event of the stream');
    }
    if (vector && st.centroid && vector.length !== st.centroid.length) {
      throw new EngramError('VALIDATION', `vector has ${vector.length} dimensions, the stream's centroid ${st.centroid.length}`, {
        issues: [{ path: 'vector', message: `expected ${st.centroid.length} dimensions` }],
      });
    }
    const explicit = this.explicitBoundary(st, event);
    if (explicit === 'follow-up') return this.join(st, event, member, 'follow-up to the closing outcome');
    if (explicit) return this.split(st, event, [member], 'explicit', [], explicit);
    const last = st.members.at(-1)!;
    if (st.stateLabel && member.stateLabel && st.stateLabel !== member.stateLabel) {
      return this.split(st, event, [member], 'state_change', [], `state "${st.stateLabel}" → "${member.stateLabel}"`);
    }
    const gap = event.ts - last.ts;
    if (gap > this.options.gapMs) {
      return this.split(st, event, [member], 'time_gap', [], `gap ${Math.round(gap / 1000)}s > ${Math.round(this.options.gapMs / 1000)}s`);
    }
    return this.semantic(st, event, member);
  }

  /** Closes the running segment of a stream (session end, task end). */
  flush(streamKey: string): Segment | undefined {
    const st = this.streams.get(streamKey);
    if (!st || st.members.length === 0) return undefined;
    this.forget(streamKey);
    return snapshot(st, 'closed', 'flushed');
  }

  /**
   * Closes segments nobody will add to: open ones quiet for longer than `gapMs`, closing ones (outcome seen)
   * once `followUpGraceMs` has passed without a correction. `now` comes from the caller's clock.
   */
  closeIdle(now: number): Segment[] {
    const out: Segment[] = [];
    for (const [key, st] of [...this.streams]) {
      const quiet = now - st.members.at(-1)!.ts;
      const limit = st.closingEventId ? this.options.followUpGraceMs : this.options.gapMs;
      if (quiet > limit) {
        this.forget(key);
        out.push(snapshot(st, 'closed', 'idle'));
      }
    }
    return out;
  }

  /** The running segment of a stream, if any. */
  peek(streamKey: string): Segment | undefined {
    const st = this.streams.get(streamKey);
    return st ? snapshot(st) : undefined;
  }

  /** Internal state of every stream, for persistence (`Segmenter.restore`). */
  state(): StreamState[] {
    return [...this.streams.values()].map(cloneState);
  }

  /** Internal state of one stream (a copy), without copying every other stream's. */
  streamState(streamKey: string): StreamState | undefined {
    const st = this.streams.get(streamKey);
    return st ? cloneState(st) : undefined;
  }

  streamKeyOf(event: SegmentEvent): string {
    return this.keyOf(event);
  }

  /** Drops a finished stream; a later event with the same key simply starts it again. */
  private forget(key: string): void {
    this.streams.delete(key);
    this.lastSeq.delete(key);
  }

  private checkOrder(key: string, event: SegmentEvent): void {
    const prev = this.lastSeq.get(key);
    if (prev !== undefined && event.seq <= prev) {
      throw new EngramError('VALIDATION', `event.seq ${event.seq} is not after ${prev}, the last seq of its stream`, {
        issues: [{ path: 'event.seq', message: `must be greater than ${prev}` }],
      });
    }
    this.lastSeq.set(key, event.seq);
  }

  /** 'follow-up' when the event joins a closing segment; a detail string when it starts a new one. */
  private explicitBoundary(st: StreamState, event: SegmentEvent): string | 'follow-up' | undefined {
    const marker = event.metadata?.episode;
    if (st.closingEventId) {
      const last = st.members.at(-1)!;
      const isFollowUp = this.options.followUpTypes.includes(event.type) && marker !== 'start';
      if (isFollowUp && event.ts - last.ts <= this.options.followUpGraceMs) return 'follow-up';
      return 'the previous episode ended with an outcome';
    }
    if (marker === 'start') return 'metadata.episode = "start"';
    if (event.type === 'state_change') return 'state_change event';
    return undefined;
  }

  private semantic(st: StreamState, event: SegmentEvent, member: Member): SegmentDecision {
    const { shiftDistance, shiftPatience, minEventsForShift } = this.options;
    if (!member.vector || !st.centroid || st.vectorCount < minEventsForShift) {
      return this.join(st, event, member, 'continues');
    }
    const d = cosineDistance(member.vector, st.centroid);
    if (d <= shiftDistance) {
      // The odd events stay but will never be carried: their vectors are no longer needed.
      for (const i of st.held) st.members[i]!.vector = undefined;
      st.held = [];
      return this.join(st, event, member, `distance ${d.toFixed(2)} ≤ ${shiftDistance}`);
    }
    if (st.held.length + 1 < shiftPatience) {
      st.held.push(st.members.length);
      return this.join(st, event, member, `held: distance ${d.toFixed(2)} > ${shiftDistance} (${st.held.length}/${shiftPatience})`, false);
    }
    const from = st.held[0] ?? st.members.length;
    const carried = st.members.slice(from);
    st.members = st.members.slice(0, from);
    st.held = [];
    const detail = `distance ${d.toFixed(2)} > ${shiftDistance} for ${shiftPatience} events`;
    return this.split(
      st,
      event,
      [...carried, member],
      'semantic_shift',
      carried.map((m) => m.id),
      detail,
    );
  }

  private join(st: StreamState, event: SegmentEvent, member: Member, detail: string, intoCentroid = true): SegmentDecision {
    st.members.push(member);
    st.stateLabel ??= member.stateLabel;
    if (member.vector && intoCentroid && !st.closingEventId) {
      st.centroid = addToMean(st.centroid, st.vectorCount, member.vector);
      st.vectorCount++;
      member.inCentroid = true;
    } else if (member.vector) {
      member.inCentroid = false;
    }
    // Only a held event can be carried into another centroid; every other one is done with its vector.
    if (intoCentroid) member.vector = undefined;
    return this.afterAdd(st, event, { action: 'continue', detail, streamKey: st.streamKey, closed: [], carried: [] });
  }

  private split(
    st: StreamState,
    event: SegmentEvent,
    members: Member[],
    reason: BoundaryReason,
    carried: string[],
    detail: string,
  ): SegmentDecision {
    const closed = st.members.length > 0 ? [snapshot(st, 'closed', reason)] : [];
    const next = this.startWith(st.streamKey, event, members, reason, carried, detail);
    return { ...next, closed: [...closed, ...next.closed] };
  }

  private startWith(
    key: string,
    event: SegmentEvent,
    members: Member[],
    openedBy: OpenReason,
    carried: string[],
    detail: string,
  ): SegmentDecision {
    const st: StreamState = { streamKey: key, scope: scopeOf(event), members: [], vectorCount: 0, held: [], openedBy };
    for (const m of members) {
      st.members.push(m);
      st.stateLabel ??= m.stateLabel;
      if (m.vector) {
        st.centroid = addToMean(st.centroid, st.vectorCount, m.vector);
        st.vectorCount++;
        m.inCentroid = true;
        m.vector = undefined;
      }
    }
    this.streams.set(key, st);
    const action = openedBy === 'stream_start' ? 'continue' : 'boundary';
    const reason = openedBy === 'stream_start' ? undefined : openedBy;
    return this.afterAdd(st, event, { action, reason, detail, streamKey: key, closed: [], carried });
  }

  /** Applies what the event itself says about the end of its episode. */
  private afterAdd(st: StreamState, event: SegmentEvent, decision: SegmentDecision): SegmentDecision {
    if (event.metadata?.episode === 'end') {
      this.streams.delete(st.streamKey);
      return { ...decision, closed: [...decision.closed, snapshot({ ...st, closingEventId: event.id }, 'closed', 'explicit')], current: undefined };
    }
    if (event.type === 'outcome' && !st.closingEventId) st.closingEventId = event.id;
    return { ...decision, current: snapshot(st) };
  }
}

function scopeOf(e: SegmentEvent): Scope {
  const scope: Scope = { tenant: e.tenant };
  if (e.userId !== undefined) scope.userId = e.userId;
  if (e.agentId !== undefined) scope.agentId = e.agentId;
  if (e.sessionId !== undefined) scope.sessionId = e.sessionId;
  if (e.taskId !== undefined) scope.taskId = e.taskId;
  return scope;
}

function snapshot(st: StreamState, status?: Segment['status'], closedBy?: CloseReason): Segment {
  const first = st.members[0]!;
  const last = st.members.at(-1)!;
  return {
    streamKey: st.streamKey,
    scope: { ...st.scope },
    eventIds: st.members.map((m) => m.id),
    startSeq: first.seq,
    endSeq: last.seq,
    startTs: first.ts,
    endTs: last.ts,
    stateLabel: st.stateLabel,
    centroid: st.centroid ? Float32Array.from(st.centroid) : undefined,
    vectorCount: st.vectorCount,
    status: status ?? (st.closingEventId ? 'closing' : 'open'),
    openedBy: st.openedBy,
    closedBy,
    closingEventId: st.closingEventId,
  };
}

function cloneState(st: StreamState): StreamState {
  return {
    ...st,
    scope: { ...st.scope },
    members: st.members.map((m) => ({ ...m, vector: m.vector ? Float32Array.from(m.vector) : undefined })),
    centroid: st.centroid ? Float32Array.from(st.centroid) : undefined,
    held: [...st.held],
  };
}
