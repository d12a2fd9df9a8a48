import type { PgMigration } from '../migrate.js';

/**
 * What saved index files and feed pruning need:
 * - `doc_changes.at`: when a row was written, so rows older than the retention can be pruned;
 * - `tenant_state.feed_floor`: the highest epoch pruned for the tenant. A reader (a process's index, or a saved
 *   index file) below it cannot catch up from the feed and loads the tenant afresh;
 * - `meta.instance_id`: a random id of this schema's data, so a node's saved index files are never taken for
 *   those of another database or of a schema that was dropped and created again.
 */
export const feedPruning: PgMigration = {
  version: 5,
  name: 'doc_changes: pruning by age (feed_floor), instance id for saved index files',
  up: () => [
    'ALTER TABLE engram.doc_changes ADD COLUMN IF NOT EXISTS at double precision NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)',
    'ALTER TABLE engram.tenant_state ADD COLUMN IF NOT EXISTS feed_floor bigint NOT NULL DEFAULT 0',
    "INSERT INTO engram.meta (key, value) VALUES ('instance_id', md5(random()::text || clock_timestamp()::text)) ON CONFLICT (key) DO NOTHING",
  ],
};
