/**
 * Online segmentation on storage. The write path calls `notify(tenant)` after every durable append; the
 * learner then reads the tenant's timeline past its cursor in seq order and feeds each event (with its stored
 * vector) to the tenant's Segmenter. What the segmenter reports is persisted at once:
 *
 *   open episode     → putEpisode(closed: false) once per run, with a draft description and the segmenter
 *                      state to resume from (written with the checkpoint, so the two agree after a crash);
 *   closing episode  → (its outcome was seen; corrections may still join) described, putEpisode(closed: true)
 *                      — retrievable now — still carrying the resume state;
 *   closed episode   → described by the summarizer (LLM when configured), resume state dropped.
 * Each newly described closed episode gets its automatic links (links.ts), reinforcement when its events name a
 * retrieval (`metadata.retrieval_id`), and — once per run — the extractor over the tenant's closed episodes.
 *
 * Vectors: in the background the learner first waits for the embedding indexer to go idle, bounded by
 * `learn.engine.vectorWaitMs`; events still without a vector then are segmented without one (the semantic
 * signal skips them; outcome, state and time signals do not need vectors). `flush()` drains the indexer before
 * the learner, so there every event has its vector.
 *
 * Idle episodes: open episodes quiet for longer than `learn.segment.gapMs` (closing ones: `followUpGraceMs`)
 * are closed by *timeline* time — the newest event time seen in the tenant — so replaying an old log segments
 * the same way as living through it; `consolidate()` closes by the clock instead.
 *
 * Episode ids are derived from the episode's first event (`episodeIdFor`): re-reading events after a crash
 * (anything past the last checkpoint) rewrites the same episodes instead of adding copies.
 *
 * Redacted events are skipped: their text is gone and they cannot describe anything.
 */
import type { Episode, MemoryEvent } from '../../core/types.js';
import type { EpisodeDescription } from '../describe-episode.js';
import { ReflectionTrigger, type ReflectionRequest } from '../reflection.js';
import { Segmenter, type Segment, type SegmentDecision, type StreamState } from '../segment.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import type { EngineContext } from './context.js';
import { episodeIdFor, episodeRecord, FOLLOW_UP_TYPES, isRedacted, loadSegmentEvents, restoreStream, segmentOf, toDescribeEvent } from './episode-record.js';
import { extractForTenant, NOTHING_EXTRACTED } from './extraction.js';
import type { ExtractionApplied } from './facts.js';
import { causedByLinks, continuationLink, learnedFromLinks, RecentEpisodes, resolveEpisodeRef, retryLinks } from './links.js';
import { KeyedLock } from './lock.js';
import { reflectOn, type StoredInsight } from './reflect.js';
import { reinforceFromRetrieval, type ReinforceReport } from './reinforce.js';

interface TenantState {
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

type Running = { id: string; seg: Segment };

export interface LearnerRun {
  tenant: string;
  events: number;
  /** Episodes newly described as closed in this run (closing ones included), in close order. */
  closed: Episode[];
  reinforced: ReinforceReport[];
  extraction: ExtractionApplied;
  insights: StoredInsight[];
}

export interface RunOptions {
  /** Close idle episodes as of this time (default: the newest event time of the tenant). */
  idleAt?: number | undefined;
  /** Skip the close-time extraction (consolidate runs its own). */
  skipExtraction?: boolean | undefined;
}

/** Reads the CAUSED_BY references an event carries. */
function causesOf(e: MemoryEvent): string[] {
  const v = e.metadata.caused_by;
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Retrieval ids named by outcome signals that arrived as plain events (not logged by `recordOutcome`). */
function retrievalIdsOf(events: readonly MemoryEvent[]): string[] {
  const ids = events
    .filter((e) => e.metadata.recorded_by !== 'recordOutcome')
    .map((e) => e.metadata.retrieval_id)
    .filter((x): x is string => typeof x === 'string' && x.length > 0);
  return [...new Set(ids)];
}

export class Learner {
  private readonly states = new Map<string, TenantState>();
  private readonly dirty = new Set<string>();
  private readonly lock = new KeyedLock();
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private stopped = true;
  /** Set by `stop()`: runs end between pages. */
  private closing = false;
  /** Resolves when `stop()` is called, so waiting for vectors never delays a close. */
  private readonly stopping: Promise<void>;
  private signalStop: () => void = () => undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly hooks: { waitForVectors?: (() => Promise<void>) | undefined } = {},
  ) {
    this.stopping = new Promise((resolve) => {
      this.signalStop = resolve;
    });
  }

  /** Starts the background loop. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    this.signalStop();
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    await this.lock.idle();
  }

  /** New events were appended for `tenant`. Cheap. */
  notify(tenant: string): void {
    this.dirty.add(tenant);
    this.wake?.();
  }

  /** Processes every tenant with pending events (and every tenant seen so far) to the end of its timeline. */
  async drain(): Promise<LearnerRun[]> {
    const tenants = new Set([...this.dirty, ...this.states.keys()]);
    this.dirty.clear();
    const runs: LearnerRun[] = [];
    for (const t of tenants) runs.push(await this.process(t));
    await this.lock.idle();
    return runs;
  }

  /** One serialized run for a tenant: read past the cursor, segment, persist, link, extract, reflect. */
  process(tenant: string, opts: RunOptions = {}): Promise<LearnerRun> {
    return this.lock.run(tenant, () => this.runTenant(tenant, opts));
  }

  /** Runs `fn` while no learner run of the tenant is in progress (e.g. consolidation steps). */
  exclusive<T>(tenant: string, fn: () => Promise<T>): Promise<T> {
    return this.lock.run(tenant, fn);
  }

  /**
   * Describes again the episode that holds `eventId` (after the event was redacted, its words must leave the
   * summary too). The episode keeps its id, events and resume state; undefined when no episode holds it.
   */
  redescribe(tenant: string, eventId: string): Promise<Episode | undefined> {
    return this.lock.run(tenant, async () => {
      const id = await resolveEpisodeRef(this.ctx.storage, tenant, eventId);
      const [stored] = id ? await this.ctx.storage.getEpisodes(tenant, [id]) : [];
      if (!stored) return undefined;
      const events = await loadSegmentEvents(this.ctx.storage, tenant, stored.eventIds);
      const views = events.map(toDescribeEvent);
      const summarizer = stored.closed ? this.ctx.summarizer : this.ctx.draftSummarizer;
      const description = await summarizer.summarize(views).catch(async (e: unknown) => {
        this.ctx.onError(e);
        return this.ctx.draftSummarizer.summarize(views);
      });
      const base = episodeRecord({ id: stored.id, segment: segmentOf(stored), description, events, recordedAt: this.ctx.clock.now(), summaryMethod: summarizer.name });
      const episode = { ...base, metadata: { ...base.metadata, ...(stored.metadata.segmenter !== undefined ? { segmenter: stored.metadata.segmenter } : {}) } };
      await this.ctx.storage.putEpisode(episode);
      this.states.get(tenant)?.recent.put(episode);
      return episode;
    });
  }

  /** Drops cached state (after the tenant's records were forgotten); the next run reloads from storage. */
  reset(tenant: string): void {
    this.states.delete(tenant);
  }

  /** When the tenant was last consolidated (kept in the checkpoint). */
  async consolidatedAt(tenant: string): Promise<number | undefined> {
    return (await this.state(tenant)).consolidatedAt;
  }

  async markConsolidated(tenant: string, at: number): Promise<void> {
    const st = await this.state(tenant);
    st.consolidatedAt = at;
    await this.checkpoint(tenant, st);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      if (this.dirty.size === 0) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
        continue;
      }
      if (this.hooks.waitForVectors) await Promise.race([this.hooks.waitForVectors().catch(() => undefined), this.stopping]);
      if (this.stopped) break;
      const tenants = [...this.dirty];
      this.dirty.clear();
      for (const t of tenants) {
        if (this.stopped) break;
        try {
          await this.process(t);
          failures = 0;
        } catch (e) {
          failures++;
          this.ctx.onError(e);
          this.dirty.add(t);
          let timer: NodeJS.Timeout | undefined;
          const backoff = new Promise<void>((r) => {
            timer = setTimeout(r, Math.min(30_000, 500 * 2 ** (failures - 1)));
          });
          await Promise.race([backoff, this.stopping]);
          clearTimeout(timer);
        }
      }
    }
  }

  private async state(tenant: string): Promise<TenantState> {
    const known = this.states.get(tenant);
    if (known) return known;
    const { storage, settings } = this.ctx;
    const cp = await loadCheckpoint(storage, tenant, this.ctx.clock.now());
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
    const state: TenantState = {
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
    this.states.set(tenant, state);
    return state;
  }

  private async checkpoint(tenant: string, st: TenantState): Promise<void> {
    st.checkpointVersion = await saveCheckpoint(
      this.ctx.storage,
      tenant,
      { cursor: st.cursor, reflection: st.trigger.state(), consolidatedAt: st.consolidatedAt, version: st.checkpointVersion },
      this.ctx.clock.now(),
    );
  }

  private async runTenant(tenant: string, opts: RunOptions): Promise<LearnerRun> {
    const st = await this.state(tenant);
    const run: LearnerRun = { tenant, events: 0, closed: [], reinforced: [], extraction: NOTHING_EXTRACTED, insights: [] };
    const startCursor = st.cursor;
    const open = new Map<string, Running>();
    // Stopping (close) ends a long catch-up between pages; the checkpoint keeps the place for the next start.
    while (!this.closing) {
      const page = await this.ctx.storage.queryEvents({ tenant, afterSeq: st.cursor, limit: this.ctx.settings.engine.batchSize, now: this.ctx.clock.now() });
      if (page.length === 0) break;
      await this.consume(tenant, st, page, open, run);
      st.cursor = page.at(-1)!.seq;
    }
    const idle = st.segmenter.closeIdle(opts.idleAt ?? st.newestTs);
    for (const seg of idle) {
      const id = st.openIds.get(seg.streamKey) ?? episodeIdFor(tenant, seg);
      st.openIds.delete(seg.streamKey);
      st.lastSeq.delete(seg.streamKey);
      st.lastTs.delete(seg.streamKey);
      open.delete(seg.streamKey);
      await this.finalize(tenant, id, seg, run);
    }
    for (const [key, r] of open) await this.persistDraft(tenant, r.id, r.seg, st.segmenter.streamState(key));
    if (run.closed.length > 0 && this.ctx.settings.engine.extractOnClose && !opts.skipExtraction) {
      run.extraction = await extractForTenant(this.ctx, tenant, this.ctx.closeExtractor);
    }
    if (st.cursor !== startCursor || idle.length > 0 || run.insights.length > 0) await this.checkpoint(tenant, st);
    return run;
  }

  /**
   * Segments one page of events and persists what closed (closed and closing episodes, with their hooks);
   * episodes still open are collected in `open` and written once at the end of the run.
   */
  private async consume(tenant: string, st: TenantState, page: readonly MemoryEvent[], open: Map<string, Running>, run: LearnerRun): Promise<void> {
    const live = page.filter((e) => !isRedacted(e));
    const vectors = live.length ? await this.ctx.storage.getEmbeddings([...new Set(live.map((e) => e.contentHash))]) : new Map<string, Float32Array>();
    const closed: Running[] = [];
    const touched = new Map<string, Running>();
    const continuations: { prev: Segment; prevId: string; next: Segment; nextId: string }[] = [];
    const reflections: ReflectionRequest[] = [];
    for (const e of live) {
      const key = st.segmenter.streamKeyOf(e);
      // A restored stream already holds the events its episode had when the process stopped.
      if (e.seq <= (st.lastSeq.get(key) ?? -1)) continue;
      const decision = st.segmenter.push(this.asSegmented(st, key, e), vectors.get(e.contentHash));
      st.lastSeq.set(key, e.seq);
      st.lastTs.set(key, e.ts);
      st.newestTs = Math.max(st.newestTs, e.ts);
      this.track(tenant, st, key, decision, closed, touched, continuations);
      if ((decision.current?.eventIds.length ?? 0) >= this.ctx.settings.engine.maxEpisodeEvents) this.cut(st, key, closed, touched);
      run.events++;
      if (this.ctx.settings.engine.reflect) {
        const req = st.trigger.observe(e);
        if (req) reflections.push(req);
      }
    }
    for (const c of closed) {
      open.delete(c.seg.streamKey);
      await this.finalize(tenant, c.id, c.seg, run);
    }
    const closing = [...touched].filter(([, t]) => t.seg.status === 'closing');
    for (const [key, t] of touched) if (t.seg.status === 'open') open.set(key, t);
    for (const [key, t] of closing) {
      open.delete(key);
      await this.describeClosed(tenant, t.id, t.seg, st.segmenter.streamState(key), run);
    }
    const links = continuations
      .map((c) => continuationLink(this.ctx, { id: c.prevId, tenant, endTs: c.prev.endTs, endedByOutcome: c.prev.closingEventId !== undefined }, { id: c.nextId, startTs: c.next.startTs }))
      .filter((l) => l !== undefined);
    if (links.length) await this.ctx.storage.putLinks(links);
    for (const req of reflections) run.insights.push(...(await reflectOn(this.ctx, tenant, req)));
    // Knowledge graph: entities and relations read from the page; a failure is reported, never stalls segmenting.
    if (this.ctx.graph && live.length > 0) await this.ctx.graph.learn(tenant, live).catch((e: unknown) => this.ctx.onError(e));
  }

  /** Maps a segmenter decision onto episode ids: closed segments, the running one, continuation pairs. */
  private track(
    tenant: string,
    st: TenantState,
    key: string,
    decision: SegmentDecision,
    closed: Running[],
    touched: Map<string, Running>,
    continuations: { prev: Segment; prevId: string; next: Segment; nextId: string }[],
  ): void {
    let id = st.openIds.get(key);
    const closedIds: string[] = [];
    for (const seg of decision.closed) {
      const cid = id ?? episodeIdFor(tenant, seg);
      closed.push({ id: cid, seg });
      closedIds.push(cid);
      id = undefined;
      touched.delete(key);
    }
    if (decision.current) {
      const cur = id ?? episodeIdFor(tenant, decision.current);
      st.openIds.set(key, cur);
      touched.set(key, { id: cur, seg: decision.current });
      if (decision.action === 'boundary' && decision.closed[0]) {
        continuations.push({ prev: decision.closed[0], prevId: closedIds[0]!, next: decision.current, nextId: cur });
      }
      const cutFrom = st.cutFrom.get(key);
      if (cutFrom && decision.current.openedBy === 'stream_start') continuations.push({ prev: cutFrom.seg, prevId: cutFrom.id, next: decision.current, nextId: cur });
      st.cutFrom.delete(key);
    } else {
      st.openIds.delete(key);
      st.lastSeq.delete(key);
      st.lastTs.delete(key);
    }
  }

  /** Closes a stream's running episode at the size cap; the stream's next event starts its continuation. */
  private cut(st: TenantState, key: string, closed: Running[], touched: Map<string, Running>): void {
    const id = st.openIds.get(key);
    const seg = st.segmenter.flush(key);
    if (!seg || !id) return;
    closed.push({ id, seg });
    touched.delete(key);
    st.openIds.delete(key);
    st.lastSeq.delete(key);
    st.lastTs.delete(key);
    st.cutFrom.set(key, { seg, id });
  }

  /**
   * An outcome closes the work it reports on even when it took a while (a CI run, a customer's reply): within
   * `followUpGraceMs` of the stream's last event, the segmenter sees it at that event's time, so the pause alone
   * does not split it off. The stored event keeps its real time, and so does the episode's `endTs`.
   */
  private asSegmented(st: TenantState, key: string, e: MemoryEvent): MemoryEvent {
    const last = st.lastTs.get(key);
    if (e.type !== 'outcome' || last === undefined) return e;
    const gap = e.ts - last;
    const { gapMs, followUpGraceMs } = this.ctx.settings.segment;
    return gap > gapMs && gap <= followUpGraceMs ? { ...e, ts: last } : e;
  }

  /** An open episode: a draft description (never the LLM) and the state to resume it from. */
  private async persistDraft(tenant: string, id: string, seg: Segment, stream: StreamState | undefined): Promise<void> {
    const events = await loadSegmentEvents(this.ctx.storage, tenant, draftIds(seg.eventIds));
    const description = await this.ctx.draftSummarizer.summarize(events.map(toDescribeEvent));
    await this.ctx.storage.putEpisode(episodeRecord({ id, segment: seg, description, events, stream, recordedAt: this.ctx.clock.now(), summaryMethod: 'draft' }));
  }

  /** A segment that will not grow any more. Already described while closing: only its resume state goes. */
  private async finalize(tenant: string, id: string, seg: Segment, run: LearnerRun): Promise<void> {
    const [stored] = await this.ctx.storage.getEpisodes(tenant, [id]);
    if (stored?.closed && stored.endSeq === seg.endSeq && stored.eventIds.length === seg.eventIds.length) {
      if (stored.metadata.segmenter !== undefined) {
        const { segmenter: _resume, ...metadata } = stored.metadata;
        await this.ctx.storage.putEpisode({ ...stored, metadata: { ...metadata, ...(seg.closedBy ? { closedBy: seg.closedBy } : {}) } });
      }
      return;
    }
    await this.describeClosed(tenant, id, seg, undefined, run);
  }

  private async describeClosed(tenant: string, id: string, seg: Segment, stream: StreamState | undefined, run: LearnerRun): Promise<void> {
    const events = await loadSegmentEvents(this.ctx.storage, tenant, seg.eventIds);
    const views = events.map(toDescribeEvent);
    let description: EpisodeDescription;
    let method = this.ctx.summarizer.name;
    try {
      description = await this.ctx.summarizer.summarize(views);
    } catch (e) {
      // A failing LLM must not stall segmentation: the heuristic description is always available.
      this.ctx.onError(e);
      description = await this.ctx.draftSummarizer.summarize(views);
      method = this.ctx.draftSummarizer.name;
    }
    const episode = episodeRecord({ id, segment: seg, description, events, stream, recordedAt: this.ctx.clock.now(), summaryMethod: method });
    await this.ctx.storage.putEpisode(episode);
    await this.afterClose(tenant, episode, events, run);
    (await this.state(tenant)).recent.put(episode);
    run.closed.push(episode);
  }

  /** Automatic links and event-borne reinforcement of a newly described closed episode. */
  private async afterClose(tenant: string, episode: Episode, events: readonly MemoryEvent[], run: LearnerRun): Promise<void> {
    const { storage } = this.ctx;
    const first = events[0];
    const followUp = first !== undefined && FOLLOW_UP_TYPES.has(first.type);
    const { recent } = await this.state(tenant);
    const previous = followUp ? recent.before(episode.startSeq).find((e) => e.streamKey === episode.streamKey) : undefined;
    const links = [
      ...(followUp ? [] : await retryLinks(this.ctx, episode, recent)),
      ...(await learnedFromLinks(this.ctx, episode, recent, previous)),
      ...(await causedByLinks(this.ctx, episode, events.flatMap(causesOf))),
    ];
    if (links.length) await storage.putLinks(links);
    for (const rid of retrievalIdsOf(events)) {
      const record = await storage.getRetrieval(tenant, rid);
      if (!record) continue;
      const correction = episode.corrections.length ? episode.corrections.join('; ') : undefined;
      run.reinforced.push(await reinforceFromRetrieval(this.ctx, tenant, episode, record, episode.outcome, { correction, rootCause: episode.rootCause }));
    }
  }
}

/** The events a draft description reads: the start (the situation) and the most recent ones. */
function draftIds(ids: readonly string[]): string[] {
  if (ids.length <= 200) return [...ids];
  return [...ids.slice(0, 50), ...ids.slice(-150)];
}
