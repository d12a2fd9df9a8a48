import type { Migration } from '../migrate.js';

/**
 * Lexical search moved from FTS5 to an in-memory BM25 index built from `docs.text` (lexical-cache.ts):
 * FTS5 scores every row matching any query word before sorting, which cost hundreds of milliseconds a
 * query at 100k docs. Dropping `docs_fts` (its triggers, shadow tables and the tokens they held) also
 * takes index maintenance off every write and leaves forgotten text nowhere but in freed pages, which
 * `secure_delete` zeroes.
 */
export const dropFts: Migration = {
  version: 3,
  name: 'lexical: drop the FTS5 index (BM25 is computed in memory from docs.text)',
  up(db) {
    db.exec(`
      DROP TRIGGER IF EXISTS docs_fts_insert;
      DROP TRIGGER IF EXISTS docs_fts_delete;
      DROP TABLE IF EXISTS docs_fts;
    `);
  },
};
