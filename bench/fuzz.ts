/**
 * bench:fuzz — hostile HTTP requests generated from the OpenAPI document against `engram serve` on a fresh
 * SQLite file. Prints counts by status, every 5xx, and whether rejected requests wrote anything.
 *
 *   npm run bench:fuzz -- [--requests 10000] [--seed 42] [--concurrency 4]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runFuzz } from './harness/fuzz.js';
import { startServer, tenantKey } from './harness/server.js';

const { values: a } = parseArgs({ options: { requests: { type: 'string', default: '10000' }, seed: { type: 'string', default: '42' }, concurrency: { type: 'string', default: '4' } } });
const dir = mkdtempSync(join(tmpdir(), 'engram-fuzz-'));
const server = await startServer(`sqlite:${join(dir, 'fuzz.db')}`);
try {
  const key = await tenantKey(server.url, server.adminKey!, 'fuzz');
  const t0 = performance.now();
  const r = await runFuzz({ url: server.url, key, requests: Number(a.requests), seed: Number(a.seed), concurrency: Number(a.concurrency) });
  console.log(`requests ${r.requests} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`by status: ${Object.entries(r.byStatus).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
  console.log(`5xx or dropped: ${r.serverErrors.length}`);
  for (const e of r.serverErrors.slice(0, 20)) console.log(`  ${e.status} ${e.method} ${e.path} ${e.body}`);
  console.log(`writes: accepted requests reported ${r.expectedWrites}, the store gained ${r.observedWrites} — rejected requests wrote ${r.observedWrites - r.expectedWrites}`);
  process.exitCode = r.serverErrors.length > 0 || r.observedWrites !== r.expectedWrites ? 1 : 0;
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
