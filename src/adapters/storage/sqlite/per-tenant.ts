import type { Statement } from 'better-sqlite3';
import type { Db } from './connection.js';
import type { IndexEvent, IndexFileFault } from '../sql/index-file.js';
import type { CheckResult } from '../sql/index-snapshot.js';

export type { IndexEvent } from '../sql/index-file.js';

/**
 * The change feed (`doc_changes`, migration 005) as this connection reads it: `seq` only grows, and every
 * commit that changes what an index holds adds rows above the last one.
 */
export class DocFeed {
  private readonly stmts = new Map<string, Statement>();
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    /** Rows older than this (ms) are pruned after a save, at most once a minute; undefined: never. */
    private readonly retentionMs?: number,
  ) {}

  /**
   * Deletes feed rows older than `olderThanMs`. A reader behind the rows pruned (an index of some process, a
   * saved file) sees `floor()` above its seq and loads afresh. Returns the rows deleted.
   */
  prune(olderThanMs: number): number {
    const cutoff = Date.now() - olderThanMs;
    return this.db.prepare('DELETE FROM doc_changes WHERE at < ?').run(cutoff).changes;
  }

  /** Prunes by the retention when a minute has passed since the last time (called after saves). */
  pruneSometimes(): void {
    if (this.retentionMs === undefined || Date.now() - this.lastPrune < 60_000 || this.db.readonly) return;
    this.lastPrune = Date.now();
    try {
      this.prune(this.retentionMs);
    } catch {
      // Busy with another writer: the next save tries again.
    }
  }

  /** Prepared on first use (a schema migrated only part way, as some tests open, has no feed table). */
  private stmt(sql: string): Statement {
    let st = this.stmts.get(sql);
    if (!st) {
      st = this.db.prepare(sql).pluck();
      this.stmts.set(sql, st);
    }
    return st;
  }

  /** The last seq ever written (0 before the first). */
  head(): number {
    return (this.stmt("SELECT seq FROM sqlite_sequence WHERE name = 'doc_changes'").get() as number | undefined) ?? 0;
  }

  /** Rows at or below this seq may have been pruned: a reader below it cannot catch up from the feed. */
  floor(): number {
    const min = this.stmt('SELECT min(seq) FROM doc_changes').get() as number | null;
    return min === null ? this.head() : min - 1;
  }

  /** Docs of `tenant` changed in (from, to]. */
  changes(tenant: string, from: number, to: number): number[] {
    return this.stmt('SELECT DISTINCT doc_id FROM doc_changes WHERE tenant = ? AND seq > ? AND seq <= ?').all(tenant, from, to) as number[];
  }

  /** Runs `fn` on one read snapshot (or inside the transaction already open). */
  snapshot<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : this.db.transaction(fn).deferred();
  }
}

/** How one kind of per-tenant structure is built, refreshed and persisted. */
export interface TenantSource<T> {
  /** Its name in index events ('lexical', 'vectors'). */
  readonly name: string;
  /** Builds the tenant's structure from the rows (called on a read snapshot). */
  load(tenant: string): T;
  /** Re-reads `docIds` from the rows into `t` (docs that no longer exist are removed). */
  apply(tenant: string, t: T, docIds: readonly number[]): void;
  /** The tenant's saved file, when there is a usable one. */
  restore?(tenant: string): { ok: true; value: T; covers: number; checked?: Promise<CheckResult> } | { ok: false; fault: IndexFileFault; detail: string };
  /** Deletes the tenant's saved file (it failed its background check). */
  discard?(tenant: string): void;
  /** False while `t` cannot be saved yet (it is still checking the files it was loaded from). */
  savable?(t: T): boolean;
  /** Writes the tenant's file as covering `covers`; returns the bytes written. */
  save?(tenant: string, t: T, covers: number): number;
  /** False while the structure is still completing in the background (a saved file would miss that work). */
  settled?(t: T): boolean;
}

interface Entry<T> {
  value: T;
  /** The feed seq this structure includes every change up to. */
  seq: number;
  /** Changes applied since it was last saved (or loaded from a file). */
  dirty: number;
  /** Its file is current (saved or loaded, settled, no change since). */
  saved: boolean;
}

/** After this many changes a tenant's file is saved again in the background (see docs/scaling.md). */
export const SAVE_AFTER_CHANGES = 20_000;

/**
 * Per-tenant in-memory structures derived from the file (vector and lexical indexes), loaded lazily on a
 * tenant's first search, from its saved file when there is a usable one (then caught up from the feed), else
 * from the rows (and the file is written again in the background). This connection's writes keep them in step
 * through hooks; another process's commits are read from the feed on the next `get`.
 */
export class PerTenant<T> {
  private readonly tenants = new Map<string, Entry<T>>();
  private saving = new Set<string>();

  constructor(
    private readonly feed: DocFeed,
    private readonly source: TenantSource<T>,
    private readonly onEvent: (e: IndexEvent) => void = () => undefined,
  ) {}

  /** The tenant's structure, opened when missing and caught up with the feed. */
  get(tenant: string): T {
    const e = this.tenants.get(tenant);
    if (e && e.seq >= this.feed.head()) return e.value;
    return this.feed.snapshot(() => {
      const head = this.feed.head();
      if (!e) return this.open(tenant, head).value;
      if (e.seq < this.feed.floor()) {
        // Fell behind what the feed still holds (pruned): open again, from the file if it is newer.
        this.tenants.delete(tenant);
        return this.open(tenant, head).value;
      }
      this.catchUp(tenant, e, head);
      return e.value;
    });
  }

  /** The tenant's structure if loaded, for a write of this connection to update (counts it as a change). */
  loaded(tenant: string): T | undefined {
    const e = this.tenants.get(tenant);
    if (!e) return undefined;
    e.dirty++;
    e.saved = false;
    if (e.dirty >= SAVE_AFTER_CHANGES) this.saveSoon(tenant);
    return e.value;
  }

  get empty(): boolean {
    return this.tenants.size === 0;
  }

  invalidate(): void {
    this.tenants.clear();
  }

  /**
   * A write of this connection moved the feed from `before` to `after` (read inside its transaction, so no
   * other commit is in between): structures that were current stay current, their hooks having applied it.
   */
  advance(before: number, after: number): void {
    for (const e of this.tenants.values()) if (e.seq === before) e.seq = after;
  }

  /** Saves every loaded tenant whose file is not current (close). */
  saveAll(): void {
    for (const tenant of this.tenants.keys()) this.save(tenant, false);
  }

  /** Saves the tenant's file now (after warm); `force` saves even a current one. */
  save(tenant: string, force = true): void {
    const e = this.tenants.get(tenant);
    if (!e || !this.source.save || (e.saved && !force)) return;
    if (this.source.savable && !this.source.savable(e.value)) return;
    try {
      this.feed.snapshot(() => {
        this.catchUp(tenant, e, this.feed.head());
        const t0 = performance.now();
        const bytes = this.source.save!(tenant, e.value, e.seq);
        e.dirty = 0;
        e.saved = this.source.settled?.(e.value) ?? true;
        this.onEvent({ kind: 'saved', index: this.source.name, tenant, covers: e.seq, bytes, ms: performance.now() - t0 });
      });
    } catch (err) {
      this.onEvent({ kind: 'save-failed', index: this.source.name, tenant, error: (err as Error).message });
      return;
    }
    this.feed.pruneSometimes();
  }

  /** Saves on a later event-loop turn (never inside the write that asked for it). */
  private saveSoon(tenant: string): void {
    if (!this.source.save || this.saving.has(tenant)) return;
    this.saving.add(tenant);
    setImmediate(() => {
      this.saving.delete(tenant);
      this.save(tenant, false);
    }).unref();
  }

  private open(tenant: string, head: number): Entry<T> {
    const t0 = performance.now();
    const restored = this.source.restore?.(tenant);
    let fault: IndexFileFault | 'stale' | 'disabled' = 'disabled';
    let detail: string | undefined;
    if (restored?.ok) {
      const floor = this.feed.floor();
      if (restored.covers >= floor && restored.covers <= head) {
        const e: Entry<T> = { value: restored.value, seq: restored.covers, dirty: 0, saved: true };
        const caughtUp = this.catchUp(tenant, e, head);
        this.tenants.set(tenant, e);
        if (restored.checked) this.whenChecked(tenant, e, restored.checked, t0);
        this.onEvent({ kind: 'loaded', index: this.source.name, tenant, from: 'file', covers: restored.covers, caughtUp, ms: performance.now() - t0 });
        if (caughtUp > 0) this.saveSoon(tenant);
        return e;
      }
      fault = 'stale';
      detail = `covers ${restored.covers}, feed holds ${floor + 1}..${head}`;
    } else if (restored) {
      fault = restored.fault;
      detail = restored.detail;
    }
    const e: Entry<T> = { value: this.source.load(tenant), seq: head, dirty: 0, saved: false };
    this.tenants.set(tenant, e);
    this.onEvent({ kind: 'loaded', index: this.source.name, tenant, from: 'rows', fault, ...(detail ? { detail } : {}), ms: performance.now() - t0 });
    this.saveSoon(tenant);
    return e;
  }

  /**
   * A structure loaded from files used in place whose background check is running: on a fault it is dropped,
   * its file deleted and the tenant loaded again from the rows (searches meanwhile were answered from what had
   * already been checked); once it passes, a save skipped meanwhile is made.
   */
  private whenChecked(tenant: string, e: Entry<T>, checked: Promise<CheckResult>, t0: number): void {
    void checked.then((c) => {
      if (this.tenants.get(tenant) !== e) return;
      if (c.ok) {
        this.onEvent({ kind: 'checked', index: this.source.name, tenant, ms: performance.now() - t0 });
        if (!e.saved) this.saveSoon(tenant);
        return;
      }
      this.tenants.delete(tenant);
      this.source.discard?.(tenant);
      this.onEvent({ kind: 'check-failed', index: this.source.name, tenant, fault: c.fault, detail: c.detail });
      setImmediate(() => {
        try {
          this.get(tenant);
        } catch {
          // Closed meanwhile: the next search loads it.
        }
      }).unref();
    });
  }

  /** Applies the feed's changes above the entry's seq up to `head`; returns how many docs were re-read. */
  private catchUp(tenant: string, e: Entry<T>, head: number): number {
    if (e.seq >= head) return 0;
    const ids = this.feed.changes(tenant, e.seq, head);
    if (ids.length > 0) {
      this.source.apply(tenant, e.value, ids);
      e.dirty += ids.length;
      e.saved = false;
    }
    e.seq = head;
    return ids.length;
  }
}
