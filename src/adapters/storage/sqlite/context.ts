import { EngramError } from '../../../core/errors.js';
import type { Db } from './connection.js';
import type { DocFeed } from './per-tenant.js';
import type { StatementCache } from './statements.js';
import type { FilterMemo } from './filter-memo.js';
import type { LexicalCache } from './lexical-cache.js';
import type { VectorCache } from './vector-cache.js';

/** What every store function works with once `init` has run. */
export interface StoreContext {
  db: Db;
  stmts: StatementCache;
  vectors: VectorCache;
  lexical: LexicalCache;
  /** Allow-lists of filtered searches (filter-memo.ts); `write` drops it, `writeRelaxed` must not touch docs. */
  filterMemo: FilterMemo;
  model: string;
  dimension: number;
  readonly: boolean;
  /**
   * Every doc with `doc_id <= embeddedThrough` has a vector for `model`. Holds because doc ids only grow
   * (AUTOINCREMENT) and a vector is deleted only once no doc references its hash; it lets the embedding
   * backlog queries skip the embedded prefix of the table instead of scanning it on every call.
   */
  cursor: { embeddedThrough: number };
  /**
   * Runs `fn` in one IMMEDIATE transaction (the write lock is taken up front, so concurrent writers in
   * other processes wait on busy_timeout instead of failing mid-transaction). If it throws, nothing is
   * written and the in-memory vector and lexical indexes are dropped, since hooks may have run before the failure.
   */
  write<T>(fn: () => T): T;
  /**
   * Like `write`, for records whose loss in a power failure costs nothing that cannot be asked again (the
   * retrieval log, embeddings) and which are not docs (the filter memo outlives these writes): committed with
   * `synchronous = NORMAL`, so the commit does not wait for an fsync. In WAL mode such a commit is durable once
   * the next FULL commit or checkpoint syncs the log, and it can never corrupt the file or reorder with other
   * commits.
   */
  writeRelaxed<T>(fn: () => T): T;
}

export function makeWriteRelaxed(db: Db, write: StoreContext['write']): StoreContext['writeRelaxed'] {
  return <T>(fn: () => T): T => {
    db.pragma('synchronous = NORMAL');
    try {
      return write(fn);
    } finally {
      db.pragma('synchronous = FULL');
    }
  };
}

/**
 * What a write transaction updates through hooks: dropped when it fails (its hooks may have run before the
 * rollback); told the feed positions around it when it commits (see PerTenant.advance).
 */
interface WriteAware {
  invalidate(): void;
  advance(before: number, after: number): void;
}

export function makeWrite(db: Db, caches: () => readonly WriteAware[], readonly: boolean, feed: DocFeed): StoreContext['write'] {
  return <T>(fn: () => T): T => {
    if (readonly) throw new EngramError('FORBIDDEN', 'this SQLite storage was opened read-only');
    let before = 0;
    let after = 0;
    let out: T;
    try {
      out = db
        .transaction(() => {
          before = feed.head();
          const r = fn();
          after = feed.head();
          return r;
        })
        .immediate();
    } catch (e) {
      for (const c of caches()) c.invalidate();
      throw e;
    }
    if (after !== before) for (const c of caches()) c.advance(before, after);
    return out;
  };
}
