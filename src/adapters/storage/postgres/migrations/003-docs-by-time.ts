import type { PgMigration } from '../migrate.js';

/**
 * Each tenant's docs by time, as in the SQLite adapter's 004-docs-by-time.ts: a filter on `ts` (a caller's, or
 * the window of a date the query names, which hybrid retrieval searches as well) reads the docs of that window
 * instead of every doc of the tenant.
 */
export const docsByTime: PgMigration = {
  version: 3,
  name: 'docs: index by tenant and time (time filters, the named time of a query)',
  up: () => ['CREATE INDEX IF NOT EXISTS docs_by_time ON engram.docs (tenant, ts)'],
};
