import type { Migration } from '../migrate.js';

/**
 * Episodes by root cause. A write that corrects an episode's cause away drops the old cause's vector unless an
 * episode (of any tenant: the embedding cache is shared by content) still states it (src/adapters/storage/sql/stores/
 * learned.ts); without the index that lookup read every episode of the file.
 */
export const episodesByCause: Migration = {
  version: 8,
  name: 'episodes: index by root cause (the cause-vector cleanup of a corrected episode)',
  up(db) {
    db.exec('CREATE INDEX IF NOT EXISTS episodes_by_root_cause ON episodes (root_cause) WHERE root_cause IS NOT NULL');
  },
};
