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
 *
 * This file is the scheduler (background loop, per-tenant lock, runs) and the public API; the per-tenant state
 * and its checkpoint are in tenant-state.ts, the page path (segmenting, cutting, persisting, closing) in consume.ts.
 */
import type { Episode } from '../../core/types.js';
import { storeCauseVectors } from './cause-vectors.js';
import { PageConsumer, type LearnerRun, type Running } from './consume.js';
import type { EngineContext } from './context.js';
import { episodeIdFor, episodeRecord, loadSegmentEvents, segmentOf, toDescribeEvent } from './episode-record.js';
import { extractForTenant, NOTHING_EXTRACTED } from './extraction.js';
import { resolveEpisodeRef } from './links.js';
import { KeyedLock } from './lock.js';
import { checkpointTenant, loadTenantState, type TenantState } from './tenant-state.js';

export type { LearnerRun } from './consume.js';

export interface RunOptions {
  /** Close idle episodes as of this time (default: the newest event time of the tenant). */
  idleAt?: number | undefined;
  /** Skip the close-time extraction (consolidate runs its own). */
  skipExtraction?: boolean | undefined;
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
  private readonly pages: PageConsumer;

  constructor(
    private readonly ctx: EngineContext,
    private readonly hooks: { waitForVectors?: (() => Promise<void>) | undefined } = {},
  ) {
    this.stopping = new Promise((resolve) => {
      this.signalStop = resolve;
    });
    this.pages = new PageConsumer(ctx, (tenant) => this.state(tenant));
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
      await storeCauseVectors(this.ctx, [episode]);
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
    await checkpointTenant(this.ctx, tenant, st);
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
    const state = await loadTenantState(this.ctx, tenant);
    this.states.set(tenant, state);
    return state;
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
      await this.pages.consume(tenant, st, page, open, run);
      st.cursor = page.at(-1)!.seq;
    }
    const idle = st.segmenter.closeIdle(opts.idleAt ?? st.newestTs);
    for (const seg of idle) {
      const id = st.openIds.get(seg.streamKey) ?? episodeIdFor(tenant, seg);
      st.openIds.delete(seg.streamKey);
      st.lastSeq.delete(seg.streamKey);
      st.lastTs.delete(seg.streamKey);
      open.delete(seg.streamKey);
      await this.pages.finalize(tenant, id, seg, run);
    }
    for (const [key, r] of open) await this.pages.persistDraft(tenant, r.id, r.seg, st.segmenter.streamState(key));
    if (run.closed.length > 0 && this.ctx.settings.engine.extractOnClose && !opts.skipExtraction) {
      run.extraction = await extractForTenant(this.ctx, tenant, this.ctx.closeExtractor);
    }
    if (st.cursor !== startCursor || idle.length > 0 || run.insights.length > 0) await checkpointTenant(this.ctx, tenant, st);
    return run;
  }
}
