/**
 * A separate process for the hot tier's multi-process tests: SQLite on a shared file behind `withCache` on a
 * shared Redis. Reads one JSON command per stdin line and answers one JSON line on stdout:
 *
 *   {"op":"append","content":"…"}            → {"ok":true,"id":"evt_…"}
 *   {"op":"appendMany","n":50,"label":"p1"}  → {"ok":true,"ids":[…]} (each append is then read back)
 *   {"op":"window","lastN":5}                → {"ok":true,"ids":[…],"contents":[…]}
 *   {"op":"putFact","key":"fact_…","text":"…"} (a new version when the key is live) → {"ok":true,"id":"…","version":2}
 *   {"op":"liveFact","key":"fact_…"}         → {"ok":true,"text":"…"|null}
 *   {"op":"forget","ids":[…]}                → {"ok":true,"report":{…}}
 *   {"op":"putWm","n":1,"expected":0}        → {"ok":true,"version":1}
 *   {"op":"getWm"}                           → {"ok":true,"version":1|null,"state":{…}|null}
 *   {"op":"stats"}                           → {"ok":true,"stats":{…}}
 *   {"op":"close"}                           → {"ok":true}, then exits
 *
 * usage: redis-child.ts <db path> <redis url> <key prefix>
 */
import { createInterface } from 'node:readline';
import { openRedisCache } from '../src/adapters/cache/redis-cache.js';
import { withCache } from '../src/adapters/cache/with-cache.js';
import { openSqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import { makeEvent, makeFact, NOW, reviseFact, TEST_DIM, TEST_MODEL, liveTs } from '../src/testing/storage-factories.js';

const TENANT = 'tenant-a';
const [path, url, keyPrefix] = process.argv.slice(2);

type Command = { op: string; [k: string]: unknown };

async function main(): Promise<void> {
  const cache = await openRedisCache({ url: url!, keyPrefix: keyPrefix!, commandTimeoutMs: 5000 });
  const storage = withCache(await openSqliteStorage({ path: path! }), cache);
  await storage.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });

  const run = async (c: Command): Promise<Record<string, unknown>> => {
    switch (c.op) {
      case 'append': {
        const e = makeEvent({ ts: liveTs(), tenant: TENANT, content: String(c.content) });
        await storage.appendEvents([e]);
        return { id: e.id };
      }
      case 'appendMany': {
        const ids: string[] = [];
        for (let i = 0; i < Number(c.n); i++) {
          const e = makeEvent({ ts: liveTs(), tenant: TENANT, content: `${String(c.label)} event ${i}` });
          await storage.appendEvents([e]);
          ids.push(e.id);
          // Read between writes, as a serving process would (the cache is busy while the other one writes);
          // the write just acknowledged must be in it, whatever the other process did meanwhile.
          const recent = await storage.queryEvents({ tenant: TENANT, lastN: 50, now: NOW });
          if (!recent.some((r) => r.id === e.id)) throw new Error(`own write ${e.id} missing from the window`);
        }
        return { ids };
      }
      case 'window': {
        const events = await storage.queryEvents({ tenant: TENANT, lastN: Number(c.lastN), now: NOW });
        return { ids: events.map((e) => e.id), contents: events.map((e) => e.content) };
      }
      case 'putFact': {
        const key = String(c.key);
        const live = await storage.getLiveFact(TENANT, key, NOW);
        const fact = live ? reviseFact(live, String(c.text)) : makeFact({ tenant: TENANT, id: key, key, text: String(c.text) });
        const { fact: stored } = await storage.putFact(fact);
        return { id: stored.id, version: stored.version };
      }
      case 'liveFact':
        return { text: (await storage.getLiveFact(TENANT, String(c.key), NOW))?.text ?? null };
      case 'forget':
        return { report: await storage.forget({ tenant: TENANT, ids: c.ids as string[] }, NOW) };
      case 'putWm': {
        const next = { tenant: TENANT, sessionId: 's1', state: { n: Number(c.n) }, updatedAt: NOW - 100 };
        const rec = await storage.putWorkingMemory(next, Number(c.expected));
        return { version: rec.version };
      }
      case 'getWm': {
        const rec = await storage.getWorkingMemory(TENANT, 's1', NOW);
        return { version: rec?.version ?? null, state: rec?.state ?? null };
      }
      case 'stats':
        return { stats: cache.stats() };
      case 'close':
        await storage.close();
        return {};
      default:
        throw new Error(`unknown op ${c.op}`);
    }
  };

  // One command at a time, in order: the parent waits for each answer.
  let queue = Promise.resolve();
  createInterface({ input: process.stdin }).on('line', (line) => {
    queue = queue.then(async () => {
      const c = JSON.parse(line) as Command;
      const reply = await run(c).then(
        (r) => ({ ok: true, ...r }),
        (e: unknown) => ({ ok: false, error: String(e) }),
      );
      process.stdout.write(`${JSON.stringify(reply)}\n`);
      if (c.op === 'close') process.exit(0);
    });
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`);
  process.exit(1);
});
