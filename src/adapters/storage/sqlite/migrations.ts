/**
 * The schema, as an ordered list. To change it, append a migration file under `migrations/` and add it
 * here with the next version; never edit one that has shipped. Each runs once, in its own transaction.
 */
import type { Migration } from './migrate.js';
import { coreSchema } from './migrations/001-core.js';
import { learnSchema } from './migrations/002-learn.js';
import { dropFts } from './migrations/003-drop-fts.js';
import { docsByTime } from './migrations/004-docs-by-time.js';
import { docChanges } from './migrations/005-doc-changes.js';
import { graphSchema } from './migrations/006-graph.js';
import { retrievalItems } from './migrations/007-retrieval-items.js';
import { episodesByCause } from './migrations/008-episodes-by-cause.js';

export const MIGRATIONS: readonly Migration[] = [coreSchema, learnSchema, dropFts, docsByTime, docChanges, graphSchema, retrievalItems, episodesByCause];
