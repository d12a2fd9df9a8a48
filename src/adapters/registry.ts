/**
 * The one place that maps provider names to factories. Typed as records over the config unions, so adding
 * a provider to a schema without a factory here is a compile error (no switch, no casts at call sites).
 */
import type { EmbedderConfig, RerankerConfig } from '../core/config.js';
import { EngramError } from '../core/errors.js';
import type { Embedder } from '../ports/embedder.js';
import type { Reranker } from '../ports/reranker.js';
import type { Storage } from '../ports/storage.js';
import { createOpenAiCompatibleEmbedder } from './embedders/openai-compatible.js';
import { createUseLiteEmbedder } from './embedders/use-lite.js';
import { createHeuristicReranker } from './rerankers/heuristic.js';
import { createHttpReranker } from './rerankers/http.js';
import { createModelRoutedReranker } from './rerankers/routed.js';
import { openSqliteStorage } from './storage/sqlite/index.js';

type FactoryMap<C extends { provider: string }, T> = { [P in C['provider']]: (cfg: Extract<C, { provider: P }>) => T };

const embedders: FactoryMap<EmbedderConfig, Embedder> = {
  'use-lite': createUseLiteEmbedder,
  'openai-compatible': createOpenAiCompatibleEmbedder,
};

const rerankers: FactoryMap<RerankerConfig, Reranker> = {
  heuristic: () => createModelRoutedReranker({ heuristic: createHeuristicReranker() }),
  http: (cfg) => createModelRoutedReranker({ heuristic: createHeuristicReranker(), remote: createHttpReranker(cfg) }),
};

export function createEmbedder<C extends EmbedderConfig>(cfg: C): Embedder {
  return (embedders[cfg.provider as C['provider']] as (c: C) => Embedder)(cfg);
}

export function createReranker<C extends RerankerConfig>(cfg: C): Reranker {
  return (rerankers[cfg.provider as C['provider']] as (c: C) => Reranker)(cfg);
}

/**
 * Storage engines by URL scheme: `sqlite:./engram.db` (or a bare path, or `:memory:`), `postgres://user@host/db`
 * (PostgreSQL; pgvector when installed), `pglite:./dir` (embedded PGlite with pgvector; `pglite:` in memory).
 * Engines other than SQLite load their drivers lazily.
 */
/** Options every engine takes (see `storage` in core/config.ts). */
export interface StorageOpenOptions {
  /** Where search indexes are saved; "off" (SQLite) saves none. */
  indexDir?: string | undefined;
}

const pgIndexDir = (o: StorageOpenOptions) => (o.indexDir && o.indexDir !== 'off' ? { indexDir: o.indexDir } : {});

const stores: Record<string, (rest: string, url: string, o: StorageOpenOptions) => Promise<Storage>> = {
  sqlite: (path, _url, o) => openSqliteStorage({ path, ...(o.indexDir ? { indexDir: o.indexDir === 'off' ? false : o.indexDir } : {}) }),
  postgres: async (_rest, url, o) => (await import('./storage/postgres/index.js')).openPostgresStorage({ url, ...pgIndexDir(o) }),
  postgresql: async (_rest, url, o) => (await import('./storage/postgres/index.js')).openPostgresStorage({ url, ...pgIndexDir(o) }),
  pglite: async (dir, _url, o) => {
    const pg = await import('./storage/postgres/index.js');
    const pool = await pg.openPglitePool(dir && dir !== ':memory:' ? { dataDir: dir } : {});
    // The storage owns this PGlite: closing it stops the database, or its timers keep the process alive.
    return pg.openPostgresStorage({ pool, ownsPool: true, ...pgIndexDir(o) });
  },
};

export const STORAGE_SCHEMES = Object.keys(stores);

export function openStorage(url: string, o: StorageOpenOptions = {}): Promise<Storage> {
  const m = /^([a-z][a-z0-9+.-]*):(?!\\)(.*)$/i.exec(url);
  const scheme = m && m[1]!.length > 1 ? m[1]!.toLowerCase() : 'sqlite';
  const rest = m && m[1]!.length > 1 ? m[2]! : url;
  const open = stores[scheme];
  if (!open) {
    throw new EngramError('CONFIG', `unknown storage "${scheme}:" (known: ${STORAGE_SCHEMES.join(', ')})`, {
      issues: [{ path: 'storage.url', message: `unsupported scheme ${scheme}` }],
    });
  }
  return open(rest === '' ? ':memory:' : rest, url, o);
}
