import type { PgMigration } from '../migrate.js';

/** As the SQLite adapter's 006-retrieval-items.ts: each retrieval's items with their score breakdown (JSON text). */
export const retrievalItems: PgMigration = {
  version: 7,
  name: 'retrievals: items with their score breakdown',
  up: () => ['ALTER TABLE engram.retrievals ADD COLUMN IF NOT EXISTS items text'],
};
