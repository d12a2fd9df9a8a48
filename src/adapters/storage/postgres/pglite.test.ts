import { afterAll } from 'vitest';
import { describeStorageConformance } from '../../../testing/storage-conformance.js';
import { dropSchema, freshSchema, sharedPglite, sharedPglitePool } from '../../../../testing/postgres-pglite.js';
import { openPostgresStorage } from './index.js';

afterAll(async () => (await sharedPglite()).close());

describeStorageConformance('postgres (PGlite in-process, pgvector)', async () => {
  const pool = await sharedPglitePool();
  const schema = freshSchema('conf');
  return {
    storage: await openPostgresStorage({ pool, schema }),
    reopen: () => openPostgresStorage({ pool, schema }),
    cleanup: () => dropSchema(pool, schema),
  };
});
