/**
 * bench:soak — mixed load on `engram serve` (SQLite) for M minutes with the server's RSS sampled; prints RSS
 * after the warm-up, at the end and after an idle minute, and the growth after warm-up.
 *
 *   npm run bench:soak -- [--minutes 30] [--warmup-minutes 5] [--workers 4] [--reads-after-warmup]
 *
 * `--reads-after-warmup`: writes only during the warm-up, then reads only, so the data stops growing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runSoak } from './harness/soak.js';
import { startServer, tenantKey } from './harness/server.js';

const { values: a } = parseArgs({ options: { minutes: { type: 'string', default: '30' }, 'warmup-minutes': { type: 'string', default: '5' }, workers: { type: 'string', default: '4' }, 'idle-seconds': { type: 'string', default: '60' }, 'reads-after-warmup': { type: 'boolean', default: false } } });
const dir = mkdtempSync(join(tmpdir(), 'engram-soak-'));
const server = await startServer(`sqlite:${join(dir, 'soak.db')}`);
try {
  const key = await tenantKey(server.url, server.adminKey!, 'soak');
  const r = await runSoak({
    server,
    key,
    durationMs: Number(a.minutes) * 60_000,
    warmupMs: Number(a['warmup-minutes']) * 60_000,
    idleMs: Number(a['idle-seconds']) * 1000,
    workers: Number(a.workers),
    sampleMs: 10_000,
    writesAfterWarmup: !a['reads-after-warmup'],
    log: (l) => console.log(`  ${l}`),
  });
  console.log(`requests ${r.requests}, 5xx or dropped ${r.errors}`);
  console.log(`rss after warm-up ${r.afterWarmupMb.toFixed(0)} MB, at end ${r.endMb.toFixed(0)} MB, after idle ${r.idleMb.toFixed(0)} MB: growth after warm-up ${r.growthPct.toFixed(1)} %`);
  process.exitCode = r.errors > 0 ? 1 : 0;
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
