import type { PgMigration } from '../migrate.js';

/**
 * As the SQLite adapter's 008-episodes-by-cause.ts: episodes by root cause, for the lookup that decides whether a
 * corrected-away cause's vector is still needed. A hash index: a root cause is free text of any length, past what a
 * B-tree entry holds, and the lookup is by equality only.
 */
export const episodesByCause: PgMigration = {
  version: 8,
  name: 'episodes: index by root cause (the cause-vector cleanup of a corrected episode)',
  up: () => ['CREATE INDEX IF NOT EXISTS episodes_by_root_cause ON engram.episodes USING hash (root_cause) WHERE root_cause IS NOT NULL'],
};
