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
const stores: Record<string, (rest: string, url: string) => Promise<Storage>> = {
  sqlite: (path) => openSqliteStorage({ path }),
  postgres: async (_rest, url) => (await import('./storage/postgres/index.js')).openPostgresStorage({ url }),
  postgresql: async (_rest, url) => (await import('./storage/postgres/index.js')).openPostgresStorage({ url }),
  pglite: async (dir) => {
    const pg = await import('./storage/postgres/index.js');
    const pool = await pg.openPglitePool(dir && dir !== ':memory:' ? { dataDir: dir } : {});
    // The storage owns this PGlite: closing it stops the database, or its timers keep the process alive.
    return pg.openPostgresStorage({ pool, ownsPool: true });
  },
};

export const STORAGE_SCHEMES = Object.keys(stores);

export function openStorage(url: string): Promise<Storage> {
  const m = /^([a-z][a-z0-9+.-]*):(?!\\)(.*)$/i.exec(url);
  const scheme = m && m[1]!.length > 1 ? m[1]!.toLowerCase() : 'sqlite';
  const rest = m && m[1]!.length > 1 ? m[2]! : url;
  const open = stores[scheme];
  if (!open) {
    throw new EngramError('CONFIG', `unknown storage "${scheme}:" (known: ${STORAGE_SCHEMES.join(', ')})`, {
      issues: [{ path: 'storage.url', message: `unsupported scheme ${scheme}` }],
    });
  }
  return open(rest === '' ? ':memory:' : rest, url);
}
