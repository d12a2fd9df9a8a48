/**
 * Episode writes (`storage.putEpisode`) on SQLite and on the PostgreSQL server: the learner replaces an episode by id
 * as it grows, and a write that changes the episode's root cause drops the old cause's vector unless another episode
 * still states it (a lookup by root cause over every episode).
 *
 *   npx tsx bench/episode-writes.ts [--episodes 5000] [--writes 400] [--runs 5] [--pg-url postgres://…] [--no-pg]
 *
 * Each run opens a fresh store (a temporary SQLite file; a scratch schema on the server, dropped at the end), writes
 * `--episodes` closed episodes with distinct root causes, then times `--writes` rewrites of existing episodes that
 * keep their cause and `--writes` that change it. Prints the median over the runs of each run's mean ms per write.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Episode } from '../src/core/types.js';
import { openPostgresStorage } from '../src/adapters/storage/postgres/index.js';
import { openSqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import type { Storage } from '../src/ports/storage.js';
import { median, round } from './stats.js';

const { values: opts } = parseArgs({
  options: {
    episodes: { type: 'string', default: '5000' },
    writes: { type: 'string', default: '400' },
    runs: { type: 'string', default: '5' },
    'no-pg': { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: process.env.ENGRAM_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const EPISODES = Number(opts.episodes);
const WRITES = Number(opts.writes);
const RUNS = Number(opts.runs);
const DIM = 8;
const T0 = Date.UTC(2026, 0, 1);

function episode(i: number, cause: string): Episode {
  return {
    id: `epi_${i}`,
    tenant: 't',
    streamKey: `s${i % 50}`,
    startSeq: i * 10,
    endSeq: i * 10 + 9,
    startTs: T0 + i * 60_000,
    endTs: T0 + i * 60_000 + 30_000,
    eventIds: [`evt_${i}_a`, `evt_${i}_b`],
    summary: `Deploy ${i} of service ${i % 37} failed; the team rolled back and found the cause.`,
    outcome: 'FAILURE',
    decisions: ['roll back'],
    assumptions: [],
    corrections: [],
    rootCause: cause,
    importance: 0.5,
    closed: true,
    metadata: {},
    recordedAt: T0 + i * 60_000 + 30_000,
  } as Episode;
}

const cause = (i: number, v = 0) => `Connection pool ${i} exhausted by a retry storm (variant ${v}).`;

async function timeWrites(s: Storage, changeCause: boolean, round: number): Promise<number> {
  const t0 = performance.now();
  for (let w = 0; w < WRITES; w++) {
    const i = (w * 7919 + round) % EPISODES;
    await s.putEpisode(episode(i, changeCause ? cause(i, round * WRITES + w + 1) : cause(i)));
  }
  return (performance.now() - t0) / WRITES;
}

async function runOn(name: string, open: () => Promise<{ storage: Storage; close: () => Promise<void> }>) {
  const same: number[] = [];
  const changed: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const { storage, close } = await open();
    try {
      await storage.init({ embeddingModel: 'bench', dimension: DIM });
      for (let i = 0; i < EPISODES; i++) await storage.putEpisode(episode(i, cause(i)));
      same.push(await timeWrites(storage, false, r));
      changed.push(await timeWrites(storage, true, r));
    } finally {
      await close();
    }
  }
  console.log(
    `${name}: ${EPISODES} episodes, ${WRITES} writes each, median of ${RUNS} runs (ms per write): same cause ${round(median(same), 3)}, changed cause ${round(median(changed), 3)}` +
      `  [runs same ${same.map((x) => round(x, 3)).join(' ')}; changed ${changed.map((x) => round(x, 3)).join(' ')}]`,
  );
}

await runOn('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-episode-writes-'));
  const storage = await openSqliteStorage({ path: join(dir, 'bench.db'), indexDir: false });
  return { storage, close: async () => { await storage.close(); rmSync(dir, { recursive: true, force: true }); } };
});

if (!opts['no-pg']) {
  const admin = new pg.Pool({ connectionString: opts['pg-url'], max: 1 });
  try {
    await runOn('postgres (loopback server)', async () => {
      const schema = `bench_episodes_${process.pid}_${Date.now()}`;
      const storage = await openPostgresStorage({ url: opts['pg-url'], schema, poolSize: 2 });
      return { storage, close: async () => { await storage.close(); await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`); } };
    });
  } finally {
    await admin.end();
  }
}
