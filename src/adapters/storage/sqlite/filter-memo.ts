import type { Db } from './connection.js';

/**
 * The doc ids a search's metadata filter allows, kept until the docs can have changed.
 *
 * A filtered search needs this allow-list from SQL (the in-memory indexes know kind, scope and expiry, not
 * tags or metadata), and computing it reads every doc of the tenant: ~15 ms at 75k docs. getContext asks for
 * it twice (lexical and vector search), and agents repeat their filters from call to call. The list is
 * computed without the expiry condition (the indexes check expiry per doc at the search's own time), so
 * it stays valid until docs change:
 *   - this connection's write transactions, committed or not, drop it (`invalidate`, wired into
 *     `StoreContext.write`; the relaxed writes of retrieval records and embeddings touch no doc and keep it);
 *   - a commit by another connection moves `PRAGMA data_version`, which is checked on every lookup.
 * One entry: the last (tenant, scope, kinds, filter) asked.
 */
export class FilterMemo {
  private entry: { key: string; version: number; ids: ReadonlySet<number> } | undefined;

  constructor(private readonly db: Db) {}

  invalidate(): void {
    this.entry = undefined;
  }

  get(key: string, compute: () => ReadonlySet<number>): ReadonlySet<number> {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (this.entry && this.entry.key === key && this.entry.version === version) return this.entry.ids;
    const ids = compute();
    this.entry = { key, version, ids };
    return ids;
  }
}
