export { openPostgresStorage, PostgresStorage, type PostgresStorageOptions, type StorageLogger } from './storage.js';
export { createPgPool, type ClientLike, type PgPoolOptions, type PoolLike, type QueryResultLike } from './pool.js';
export { openPglitePool, pglitePool, type PgliteLike, type PgliteOptions } from './pglite.js';
export { MIGRATIONS } from './migrations.js';
export type { PgMigration } from './migrate.js';
export type { AnnOptions } from './context.js';
export type { VectorMode, VectorPreference } from './vector-setup.js';
