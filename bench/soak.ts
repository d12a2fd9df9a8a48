/**
 * bench:soak — mixed load on `engram serve` (SQLite) for M minutes with the server's RSS sampled; prints RSS
 * after the warm-up, at the end and after an idle minute, and the growth after warm-up: first sample to last,
 * medians of the first and last windows (RSS, anonymous, mapped file), and MB per 1,000 writes.
 *
 *   npm run bench:soak -- [--minutes 30] [--warmup-minutes 5] [--workers 4] [--idle-seconds 60]
 *                         [--sample-seconds 10] [--window-minutes W] [--reads-after-warmup] [--node-arg=--flag …]
 *
 * `--node-arg`: an option for the server's node process (repeatable), e.g. `--node-arg=--heap-growing-percent=50`.
 *
 * `--reads-after-warmup`: writes only during the warm-up, then reads only, so the data stops growing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runSoak } from './harness/soak.js';
import { startServer, tenantKey } from './harness/server.js';

const { values: a } = parseArgs({ options: { minutes: { type: 'string', default: '30' }, 'warmup-minutes': { type: 'string', default: '5' }, workers: { type: 'string', default: '4' }, 'idle-seconds': { type: 'string', default: '60' }, 'sample-seconds': { type: 'string', default: '10' }, 'window-minutes': { type: 'string' }, 'reads-after-warmup': { type: 'boolean', default: false }, 'node-arg': { type: 'string', multiple: true, default: [] } } });
const dir = mkdtempSync(join(tmpdir(), 'engram-soak-'));
const server = await startServer(`sqlite:${join(dir, 'soak.db')}`, { nodeArgs: a['node-arg'] });
if (a['node-arg'].length > 0) console.log(`server node options: ${a['node-arg'].join(' ')}`);
try {
  const key = await tenantKey(server.url, server.adminKey!, 'soak');
  const r = await runSoak({
    server,
    key,
    durationMs: Number(a.minutes) * 60_000,
    warmupMs: Number(a['warmup-minutes']) * 60_000,
    idleMs: Number(a['idle-seconds']) * 1000,
    workers: Number(a.workers),
    sampleMs: Number(a['sample-seconds']) * 1000,
    ...(a['window-minutes'] ? { windowMs: Number(a['window-minutes']) * 60_000 } : {}),
    writesAfterWarmup: !a['reads-after-warmup'],
    log: (l) => console.log(`  ${l}`),
  });
  const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');
  console.log(`requests ${r.requests}, 5xx or dropped ${r.errors}; writes acknowledged ${r.writes} (${r.writesAfterWarmup} after warm-up)`);
  console.log(`rss after warm-up ${f(r.afterWarmupMb)} MB, at end ${f(r.endMb)} MB, after idle ${f(r.idleMb)} MB: growth after warm-up ${f(r.growthPct, 1)} % (first sample to last)`);
  for (const [name, w] of Object.entries(r.window)) {
    console.log(`  ${name.padEnd(4)} window medians ${f(w.fromMb)} → ${f(w.toMb)} MB: ${f(w.pct, 1)} %, ${f(w.mbPer1kWrites, 2)} MB per 1,000 writes`);
  }
  console.log(`  at end: anon ${f(r.end.anonMb)} MB, file ${f(r.end.fileMb)} MB, embedding backlog ${r.end.embeddingBacklog ?? '–'}; after idle: anon ${f(r.idle.anonMb)} MB, file ${f(r.idle.fileMb)} MB, backlog ${r.idle.embeddingBacklog ?? '–'}`);
  process.exitCode = r.errors > 0 ? 1 : 0;
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
