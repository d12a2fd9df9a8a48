/**
 * The schema, as an ordered list. To change it, append a migration under `migrations/` with the next
 * version; never edit one that has shipped.
 */
import type { PgMigration } from './migrate.js';
import { coreSchema } from './migrations/001-core.js';
import { learnSchema } from './migrations/002-learn.js';
import { docsByTime } from './migrations/003-docs-by-time.js';
import { docChanges } from './migrations/004-doc-changes.js';
import { feedPruning } from './migrations/005-feed-pruning.js';
import { graphSchema } from './migrations/006-graph.js';
import { retrievalItems } from './migrations/007-retrieval-items.js';
import { episodesByCause } from './migrations/008-episodes-by-cause.js';

export const MIGRATIONS: readonly PgMigration[] = [coreSchema, learnSchema, docsByTime, docChanges, feedPruning, graphSchema, retrievalItems, episodesByCause];
