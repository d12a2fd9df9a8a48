/**
 * bench:crash — kill -9 of `engram serve` during concurrent HTTP ingest, N cycles, on SQLite and PostgreSQL.
 * Prints acknowledged writes, lost acknowledged writes and integrity per engine.
 *
 *   npm run bench:crash -- [--cycles 100] [--pg-cycles 20] [--workers 8] [--pg postgres://postgres@127.0.0.1:5432]
 *
 * PostgreSQL runs in a scratch database (created and dropped here); `--pg-cycles 0` skips it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCrash, type CrashResult } from './harness/crash.js';
import { withScratchPostgres } from './harness/postgres.js';

const { values: a } = parseArgs({
  options: {
    cycles: { type: 'string', default: '100' },
    'pg-cycles': { type: 'string', default: '20' },
    workers: { type: 'string', default: '8' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
  },
});
const workers = Number(a.workers);
const print = (engine: string, r: CrashResult) =>
  console.log(`${engine}: cycles ${r.cycles}, acked ${r.acked}, lost ${r.lost}, duplicates ${r.duplicates}, integrity ${r.integrity}; answers ${JSON.stringify(r.statuses)}`);

let failed = false;
const dir = mkdtempSync(join(tmpdir(), 'engram-crash-'));
try {
  const path = join(dir, 'crash.db');
  const r = await runCrash({ store: `sqlite:${path}`, sqlitePath: path, cycles: Number(a.cycles), workers, log: (l) => console.log(`  sqlite ${l}`) });
  print('sqlite', r);
  failed ||= r.lost > 0 || r.duplicates > 0 || r.integrity !== 'ok';
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (Number(a['pg-cycles']) > 0) {
  await withScratchPostgres(a.pg!, 'engram_crash', async (url) => {
    const r = await runCrash({ store: url, cycles: Number(a['pg-cycles']), workers, log: (l) => console.log(`  postgres ${l}`) });
    print('postgres', r);
    failed ||= r.lost > 0 || r.duplicates > 0 || r.integrity !== 'ok';
  });
}
process.exitCode = failed ? 1 : 0;
