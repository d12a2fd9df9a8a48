/**
 * `npm run bench:mixed` — getContext while the embedding backlog drains: what an agent sees when it asks for
 * context right after logging a burst of events. The embedded default (SQLite file + USE-lite, 2 workers,
 * background indexing on); `--events` are logged in batches of 1,000 (not waiting for their embeddings), then
 * `--queries` new questions go through getContext one after another while the workers drain the backlog.
 * Reports getContext p50/p95/p99 (median over `--runs` fresh databases) and how many texts the background
 * embedded meanwhile.
 *
 * Options: --events 6000  --queries 60  --runs 3  --json
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { synthEvents, synthQueries } from './perf/synthetic.js';
import { openMemory } from '../src/index.js';
import { latency, machine, median, round, timeEach } from './stats.js';

const { values: opts } = parseArgs({
  options: {
    events: { type: 'string', default: '6000' },
    queries: { type: 'string', default: '60' },
    runs: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const nEvents = Number(opts.events);
const nQueries = Number(opts.queries);
const runs = Number(opts.runs);

async function run(i: number) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-mixed-'));
  const memory = await openMemory({ storage: { url: `sqlite:${join(dir, 'bench.db')}` }, retention: { sweepIntervalMinutes: 0 } });
  try {
    await memory.getContext('load the model before timing');
    const events = synthEvents(nEvents, 3 + i).map(({ family: _f, ...e }) => e);
    for (let at = 0; at < events.length; at += 1000) await memory.logEvents(events.slice(at, at + 1000));
    const before = await memory.embeddingBacklog();
    const ms = await timeEach(synthQueries(nQueries, 5 + i), (q) => memory.getContext(q));
    return { ...latency(ms), embeddedMeanwhile: before - (await memory.embeddingBacklog()) };
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: Awaited<ReturnType<typeof run>>[] = [];
for (let i = 0; i < runs; i++) {
  results.push(await run(i));
  if (!opts.json) process.stderr.write(`run ${i + 1}/${runs}: getContext p95 ${results.at(-1)!.p95} ms\n`);
}
const pick = (k: 'p50' | 'p95' | 'p99' | 'embeddedMeanwhile') => round(median(results.map((r) => r[k])));
const report = { machine: machine(), events: nEvents, queries: nQueries, runs, getContext: { p50: pick('p50'), p95: pick('p95'), p99: pick('p99') }, embeddedMeanwhile: pick('embeddedMeanwhile') };
process.stdout.write(
  opts.json
    ? `${JSON.stringify(report, null, 2)}\n`
    : `getContext during a background drain (${nEvents} events just logged, ${nQueries} new questions, median of ${runs} runs) — ${report.machine}\n` +
        `  p50 ${report.getContext.p50} ms, p95 ${report.getContext.p95} ms, p99 ${report.getContext.p99} ms; ${report.embeddedMeanwhile} texts embedded meanwhile\n`,
);
