/**
 * A separate OS process holding a PostgreSQL storage, for the multi-process freshness test. Reads one JSON
 * command a line on stdin and answers one JSON line on stdout:
 *
 *   {"op":"append","tenant":t,"content":c}   → {"id":…}
 *   {"op":"search","tenant":t,"text":q}      → {"hits":n}   (lexical search, k = 10)
 *   {"op":"close"}                           → {"closed":true}, then exits
 *
 * Prints {"ready":true} once the storage is initialised. Arguments: <url> <schema>.
 */
import { createInterface } from 'node:readline';
import { openPostgresStorage } from '../src/adapters/storage/postgres/index.js';
import { makeEvent, NOW, TEST_DIM, TEST_MODEL } from '../src/testing/storage-factories.js';

const [url, schema] = process.argv.slice(2);

type Command = { op: 'append'; tenant: string; content: string } | { op: 'search'; tenant: string; text: string } | { op: 'close' };

async function main(): Promise<void> {
  const storage = await openPostgresStorage({ url: url!, schema: schema!, poolSize: 2, logger: { warn: () => undefined } });
  await storage.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
  const say = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);
  say({ ready: true, pid: process.pid });
  const lines = createInterface({ input: process.stdin });
  // One command at a time, in order.
  let chain = Promise.resolve();
  lines.on('line', (line) => {
    chain = chain.then(async () => {
      const c = JSON.parse(line) as Command;
      if (c.op === 'append') {
        const [r] = await storage.appendEvents([makeEvent({ tenant: c.tenant, content: c.content })]);
        say({ id: r!.id });
      } else if (c.op === 'search') {
        say({ hits: (await storage.lexicalSearch({ tenant: c.tenant, text: c.text, k: 10, now: NOW })).length });
      } else {
        await storage.close();
        say({ closed: true });
        process.exit(0);
      }
    });
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`);
  process.exit(1);
});
