/**
 * `npm run bench:fsync` — the disk's floor under one durable write: what a caller that waits for each write
 * before sending the next can get at best, whatever the engine does above the disk.
 *
 *   fdatasync   append 4 KiB to a file and fdatasync it, one after another
 *   sqlite      one-row INSERT transactions into a bare SQLite file in WAL mode with synchronous=FULL (one
 *               WAL fsync per commit: the mode Engram's embedded store runs in), one after another
 *
 * Each is timed `--ops` times per run in a fresh file under `--dir` (default: the OS temp dir; point it at the
 * disk the database lives on), median over `--runs`. Reports per-op latency and the implied ceiling in ops/s.
 *
 * Options: --ops 2000  --runs 3  --dir /tmp  --json
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { machine, median, round } from './stats.js';

const { values: opts } = parseArgs({
  options: {
    ops: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
    dir: { type: 'string', default: tmpdir() },
    json: { type: 'boolean', default: false },
  },
});
const ops = Number(opts.ops);
const runs = Number(opts.runs);

function timeOps(fn: () => void): number {
  const t0 = performance.now();
  for (let i = 0; i < ops; i++) fn();
  return (performance.now() - t0) / ops;
}

function fdatasyncRun(dir: string): number {
  const fd = openSync(join(dir, 'f.bin'), 'w');
  const page = Buffer.alloc(4096, 1);
  try {
    return timeOps(() => {
      writeSync(fd, page);
      fdatasyncSync(fd);
    });
  } finally {
    closeSync(fd);
  }
}

function sqliteRun(dir: string): number {
  const db = new Database(join(dir, 's.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    const body = 'x'.repeat(200);
    return timeOps(() => insert.run(body));
  } finally {
    db.close();
  }
}

const results: Record<'fdatasync' | 'sqlite', number[]> = { fdatasync: [], sqlite: [] };
for (let r = 0; r < runs; r++) {
  for (const [name, fn] of [['fdatasync', fdatasyncRun], ['sqlite', sqliteRun]] as const) {
    const dir = mkdtempSync(join(opts.dir, 'engram-bench-fsync-'));
    try {
      results[name].push(fn(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
const summary = (ms: number[]) => ({ msPerOp: round(median(ms), 3), ceilingPerSec: Math.round(1000 / median(ms)), runsMs: ms.map((x) => round(x, 3)) });
const report = { machine: machine(), dir: opts.dir, ops, runs, fdatasync: summary(results.fdatasync), sqlite: summary(results.sqlite) };
if (opts.json) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`durable single writes, one after another (${ops} per run, median of ${runs}; ${opts.dir})`);
  for (const name of ['fdatasync', 'sqlite'] as const) {
    const r = report[name];
    console.log(`  ${name.padEnd(10)} ${r.msPerOp.toFixed(3)} ms per write → at most ${r.ceilingPerSec.toLocaleString('en-US')} writes/s`);
  }
}
