export { openSqliteStorage, SqliteStorage, type SqliteStorageOptions } from './storage.js';
export { MIGRATIONS } from './migrations.js';
export { migrate, schemaVersion, type Migration } from './migrate.js';
