import type { PgDb } from './db.js';
import type { Stemmer } from './lexical-search.js';
import type { InProcessVectors } from './vector-cache.js';
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
  /** Set when this process searches in process (no pgvector, or pgvector serving another model). */
  vectors: InProcessVectors | undefined;
  annOptions: AnnOptions;
  stemmer: Stemmer;
}

/** Vector search runs in the database (pgvector column of this model). */
export const usesAnn = (ctx: PgContext): boolean => ctx.ann !== undefined && ctx.ann.model === ctx.model && ctx.ann.dimension === ctx.dimension;
