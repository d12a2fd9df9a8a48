/**
 * bench:store's pglite-socket server, run as a child process (store-adapters.ts): PGlite + pgvector on files in
 * the directory given as the first argument, served on a free loopback port, announced as "listening HOST:PORT"
 * on stdout; stops on SIGTERM.
 */
async function servePglite(dir: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create({ dataDir: dir, extensions: { vector } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
  await server.start();
  process.stdout.write(`listening ${server.getServerConn()}\n`);
  const shutdown = async () => {
    await server.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: pglite-server.ts DIR\n');
  process.exit(2);
}
await servePglite(dir);
