import { afterAll, beforeAll } from 'vitest';
import { describeStorageConformance } from '../../../testing/storage-conformance.js';
import { dropSchema, freshSchema, sharedPglite, sharedPglitePool, startPgliteSocket, type SocketServer } from '../../../../testing/postgres-pglite.js';
import { openPostgresStorage } from './index.js';

/**
 * The production code path on PGlite: the ordinary `pg` driver and `pg.Pool` (four connections) over the
 * Postgres wire protocol, served by pglite-socket on loopback, with pgvector.
 */
let server: SocketServer;
beforeAll(async () => {
  server = await startPgliteSocket();
});
afterAll(async () => {
  await server.stop();
  await (await sharedPglite()).close();
});

describeStorageConformance('postgres (pg over pglite-socket, pgvector)', async () => {
  const schema = freshSchema('wire');
  const open = () => openPostgresStorage({ url: server.url, schema, poolSize: 4 });
  return {
    storage: await open(),
    reopen: open,
    cleanup: async () => dropSchema(await sharedPglitePool(), schema),
  };
});
