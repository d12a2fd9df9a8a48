import type { PgMigration } from '../migrate.js';

/**
 * The change feed of the in-process search indexes: every committed write that adds, removes or re-derives a
 * doc (or gives its text a vector) records (tenant, epoch, doc id) with the tenant's new `vector_epoch`. The
 * rows are written after the tenant's state row is locked and bumped, so per tenant the epochs commit in
 * order; a process whose index is at epoch e catches up by reading the rows above e instead of reloading.
 * `doc_id` 0 means "reload the tenant" (a change that could not be listed).
 */
export const docChanges: PgMigration = {
  version: 4,
  name: 'doc_changes: the change feed of the in-process indexes',
  up: () => [
    `CREATE TABLE IF NOT EXISTS engram.doc_changes (
       tenant text NOT NULL,
       epoch bigint NOT NULL,
       doc_id bigint NOT NULL,
       removed boolean NOT NULL
     )`,
    'CREATE INDEX IF NOT EXISTS doc_changes_by_epoch ON engram.doc_changes (tenant, epoch)',
  ],
};
