/**
 * HTTP benchmark: autocannon against a local `engram serve`-equivalent server (loopback only, bounded time)
 * on a SQLite file with the real embedder. Reports req/s and latency p50/p99 for logging an event and for
 * building a seed-000 context, and for GET /v1/me (auth, rate-limit check, logging, no storage work) as the
 * floor the HTTP layer itself costs. The same write and context calls made on the library directly, with the
 * same concurrency, separate the cost of HTTP from the cost of the engine behind it.
 *
 *   npx tsx bench/http.ts [--duration 10] [--connections 10] [--events 2000] [--json]
 *
 * Rate limiting is off (it would measure the limiter); request logs go to /dev/null at the default level, so
 * their cost is included. Each logged event has unique content (no dedupe shortcut). The embedder runs in its
 * worker threads in the background, as in `engram serve`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { openMemory } from '../src/index.js';
import { createApiKey } from '../src/surfaces/http/keys.js';
import { startHttpServer } from '../src/surfaces/http/index.js';

/** The parts of autocannon used here (it ships no type declarations). */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; requests: AutocannonRequest[] }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    events: { type: 'string', default: '2000' },
    json: { type: 'boolean', default: false },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);
const seedEvents = Number(args.events);

const WORDS = ['deploy', 'rollback', 'refund', 'invoice', 'latency', 'cluster', 'password', 'policy', 'customer', 'payments', 'annual', 'timeout', 'replica', 'canary'];
const sentence = (i: number) => Array.from({ length: 10 }, (_, j) => WORDS[(i * 7 + j * 3 + (i >> j)) % WORDS.length]).join(' ');

const dir = mkdtempSync(join(tmpdir(), 'engram-bench-http-'));
const memory = await openMemory({ storage: { url: `sqlite:${join(dir, 'bench.db')}` }, retention: { sweepIntervalMinutes: 0 } });
try {
  const { key } = await createApiKey(memory.storage, { role: 'tenant', tenant: 'bench', name: 'bench' });
  for (let i = 0; i < seedEvents; i += 500) {
    await memory.logEvents(Array.from({ length: Math.min(500, seedEvents - i) }, (_, j) => ({ tenant: 'bench', content: sentence(i + j), sessionId: `s${(i + j) % 20}`, tags: [WORDS[(i + j) % 5]!] })));
  }
  for (let i = 0; i < 200; i++) await memory.remember({ tenant: 'bench', text: `${sentence(i * 13)}.`, source: `doc${i % 10}.md`, tags: ['policy'] });
  await memory.flush();

  const server = await startHttpServer({ memory, closeMemory: false, logger: pino({ level: 'info' }, pino.destination('/dev/null')), options: { port: 0, host: '127.0.0.1', rateLimit: { perSecond: 0 } } });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  let n = 0;

  const me = await autocannon({ url: server.url, connections, duration, requests: [{ method: 'GET', path: '/v1/me', headers }] });
  const logEvent = await autocannon({
    url: server.url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/v1/events',
        headers,
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ content: `${sentence(n)} #${n++}`, session_id: `s${n % 20}`, type: 'observation' }) }),
      },
    ],
  });
  const backlogAfterLog = await memory.embeddingBacklog();
  await memory.flush();

  const directLog = await direct(() => memory.logEvent({ tenant: 'bench', content: `${sentence(n)} #${n++}`, sessionId: `s${n % 20}`, type: 'observation' }));
  await memory.flush();

  const contextBody = JSON.stringify({
    query: 'the customer asks about a refund on the annual plan after a failed deploy',
    episodic_window: { mode: 'last_n_events', n: 5, filters: { session_id: 's3' } },
    semantic_retrieval: { top_k: 5, filters: { tags: ['policy'] } },
    merge_policy: { dedupe: 'source+hash', priority: ['episodic_recent', 'semantic'], token_budget: 1500 },
  });
  const context = await autocannon({ url: server.url, connections, duration, requests: [{ method: 'POST', path: '/v1/context', headers, body: contextBody }] });
  const contextConfig = JSON.parse(contextBody) as { query: string } & Record<string, unknown>;
  const directContext = await direct(() => memory.getContext(contextConfig.query, { ...contextConfig, tenant: 'bench' }));
  await server.shutdown();

  const row = (name: string, r: AutocannonResult) => ({
    route: name,
    reqPerSec: Math.round(r.requests.average),
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  });
  const results = [
    row('GET /v1/me', me),
    row('POST /v1/events', logEvent),
    row('library logEvent', directLog),
    row('POST /v1/context', context),
    row('library getContext', directContext),
  ];
  const machine = `${cpus()[0]?.model ?? 'cpu'} × ${availableParallelism()}, node ${process.version}, load ${loadavg()[0]!.toFixed(1)}`;
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ machine, duration, connections, seedEvents, backlogAfterLog, results }, null, 2)}\n`);
  } else {
    process.stdout.write(`engram HTTP bench — ${machine}; ${connections} connections × ${duration}s per route; ${seedEvents} seeded events + 200 facts\n`);
    for (const r of results) {
      process.stdout.write(`${r.route.padEnd(20)} ${String(r.reqPerSec).padStart(6)} req/s   p50 ${String(r.p50ms).padStart(4)} ms   p99 ${String(r.p99ms).padStart(4)} ms   (${r.total} requests, ${r.non2xx} non-2xx, ${r.errors} errors)\n`);
    }
    process.stdout.write(`embedding backlog right after the log run: ${backlogAfterLog} (lexical search finds those at once)\n`);
  }
} finally {
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}

/** `connections` concurrent loops calling `fn` for `duration` seconds, reported like autocannon. */
async function direct(fn: () => Promise<unknown>): Promise<AutocannonResult> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await fn();
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    requests: { average: latencies.length / duration, total: latencies.length },
    latency: { p50: at(0.5), p99: at(0.99), average: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length) },
    non2xx: 0,
    errors,
    timeouts: 0,
  };
}
