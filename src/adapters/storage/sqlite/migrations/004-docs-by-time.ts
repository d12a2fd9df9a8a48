import type { Migration } from '../migrate.js';

/**
 * An index on each tenant's docs by time. A filter on `ts` (a caller's, or the window of a date the query
 * names, which hybrid retrieval searches as well: src/read/semantic.ts) becomes the searches' allow-list
 * through one SQL query; without the index that query read every doc of the tenant (≈ 20 ms at 100k docs, and
 * ten times that at a million, on every new window or after any write), with it only the docs of the window.
 */
export const docsByTime: Migration = {
  version: 4,
  name: 'docs: index by tenant and time (time filters, the named time of a query)',
  up(db) {
    db.exec('CREATE INDEX IF NOT EXISTS docs_by_time ON docs (tenant, ts)');
  },
};
