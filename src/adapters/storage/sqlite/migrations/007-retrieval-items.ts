import type { Migration } from '../migrate.js';

/**
 * What each retrieval handed out with its score breakdown (kind, section, scores per item, JSON text), so the
 * retrieval log can say why an item was recalled. NULL on records written before. (Version 5 is the knowledge
 * graph's schema.)
 */
export const retrievalItems: Migration = {
  version: 7,
  name: 'retrievals: items with their score breakdown',
  up(db) {
    db.exec('ALTER TABLE retrievals ADD COLUMN items TEXT');
  },
};
