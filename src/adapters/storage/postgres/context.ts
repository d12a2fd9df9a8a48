import type { PgDb } from './db.js';
import type { InProcessIndexes } from './search-indexes.js';
import type { AnnSetup, VectorMode } from './vector-setup.js';

/** Tunables of vector search on pgvector. */
export interface AnnOptions {
  /**
   * A query whose candidates (tenant, scope, kinds, filter, expiry) number at most this many is answered
   * exactly; above it the HNSW index answers (iterative scan). Default 5,000.
   */
  exactLimit: number;
  /** hnsw.ef_search is max(this, 2·k), capped at 1,000. Default 100. */
  efSearch: number;
}

/** What every store function works with once `init` has run. */
export interface PgContext {
  db: PgDb;
  model: string;
  dimension: number;
  /** How the schema stores vectors. */
  mode: VectorMode;
  /** With pgvector: the model `docs.embedding` serves (searches of that model use HNSW). */
  ann: AnnSetup | undefined;
  /** BM25 (always) and vectors (without a pgvector column for this model), in process, fed by the change feed. */
  indexes: InProcessIndexes;
  annOptions: AnnOptions;
}

/** Vector search runs in the database (pgvector column of this model). */
export const usesAnn = (ctx: Pick<PgContext, 'ann' | 'model' | 'dimension'>): boolean => ctx.ann !== undefined && ctx.ann.model === ctx.model && ctx.ann.dimension === ctx.dimension;
