/**
 * A separate process for the SQLite adapter's durability and multi-process tests.
 *
 *   append-and-hang <db> <tenant> <content>   append one event, print "ok <id> <seq>", then wait to be killed
 *   append-many <db> <tenant> <count>         append <count> one-event batches, print "done <count>", exit
 */
import { openSqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import { makeEvent, TEST_DIM, TEST_MODEL } from '../src/testing/storage-factories.js';

const [cmd, path, tenant, arg] = process.argv.slice(2);

async function main(): Promise<void> {
  const storage = await openSqliteStorage({ path: path! });
  await storage.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
  if (cmd === 'append-and-hang') {
    const event = makeEvent({ tenant: tenant!, content: arg! });
    const [res] = await storage.appendEvents([event]);
    process.stdout.write(`ok ${res!.id} ${res!.seq}\n`);
    setInterval(() => undefined, 1 << 30);
    return;
  }
  if (cmd === 'append-many') {
    const n = Number(arg);
    for (let i = 0; i < n; i++) await storage.appendEvents([makeEvent({ tenant: tenant!, content: `pid ${process.pid} event ${i}` })]);
    await storage.close();
    process.stdout.write(`done ${n}\n`);
    return;
  }
  throw new Error(`unknown command ${cmd}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`);
  process.exit(1);
});
