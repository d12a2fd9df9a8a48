/**
 * The learner's page path (learner.ts runs it under the tenant's lock): segments a page of events, maps the
 * segmenter's decisions onto episode ids, cuts episodes at the size cap, and persists what it reports — drafts
 * for open episodes, described records for closing and closed ones, with the hooks of a newly closed episode
 * (automatic links, event-borne reinforcement).
 */
import type { Episode, MemoryEvent } from '../../core/types.js';
import type { EpisodeDescription } from '../describe-episode.js';
import type { ReflectionRequest } from '../reflection.js';
import type { Segment, SegmentDecision, StreamState } from '../segment.js';
import type { EngineContext } from './context.js';
import { episodeIdFor, episodeRecord, FOLLOW_UP_TYPES, isRedacted, loadSegmentEvents, toDescribeEvent } from './episode-record.js';
import type { ExtractionApplied } from './facts.js';
import { causedByLinks, continuationLink, learnedFromLinks, retryLinks } from './links.js';
import { reflectOn, type StoredInsight } from './reflect.js';
import { storeCauseVectors } from './cause-vectors.js';
import { reinforceFromRetrieval, type ReinforceReport } from './reinforce.js';
import type { TenantState } from './tenant-state.js';

export type Running = { id: string; seg: Segment };

export interface LearnerRun {
  tenant: string;
  events: number;
  /** Episodes newly described as closed in this run (closing ones included), in close order. */
  closed: Episode[];
  reinforced: ReinforceReport[];
  extraction: ExtractionApplied;
  insights: StoredInsight[];
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

export class PageConsumer {
  constructor(
    private readonly ctx: EngineContext,
    /** The tenant's state as the Learner holds it (loaded on first use). */
    private readonly stateOf: (tenant: string) => Promise<TenantState>,
  ) {}

  /**
   * Segments one page of events and persists what closed (closed and closing episodes, with their hooks);
   * episodes still open are collected in `open` and written once at the end of the run.
   */
  async consume(tenant: string, st: TenantState, page: readonly MemoryEvent[], open: Map<string, Running>, run: LearnerRun): Promise<void> {
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
  async persistDraft(tenant: string, id: string, seg: Segment, stream: StreamState | undefined): Promise<void> {
    const events = await loadSegmentEvents(this.ctx.storage, tenant, draftIds(seg.eventIds));
    const description = await this.ctx.draftSummarizer.summarize(events.map(toDescribeEvent));
    await this.ctx.storage.putEpisode(episodeRecord({ id, segment: seg, description, events, stream, recordedAt: this.ctx.clock.now(), summaryMethod: 'draft' }));
  }

  /** A segment that will not grow any more. Already described while closing: only its resume state goes. */
  async finalize(tenant: string, id: string, seg: Segment, run: LearnerRun): Promise<void> {
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
    await storeCauseVectors(this.ctx, [episode]);
    await this.afterClose(tenant, episode, events, run);
    (await this.stateOf(tenant)).recent.put(episode);
    run.closed.push(episode);
  }

  /** Automatic links and event-borne reinforcement of a newly described closed episode. */
  private async afterClose(tenant: string, episode: Episode, events: readonly MemoryEvent[], run: LearnerRun): Promise<void> {
    const { storage } = this.ctx;
    const first = events[0];
    const followUp = first !== undefined && FOLLOW_UP_TYPES.has(first.type);
    const { recent } = await this.stateOf(tenant);
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
