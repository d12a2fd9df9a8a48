/**
 * `npm run bench:graph -- --data PATH/locomo10.json`: knowledge-graph extraction without an LLM.
 *
 * 1. Throughput of the rules (compromise tagging + relation patterns + resolution) on one core: every LoCoMo turn
 *    with its speaker, turns/s, median of 3 passes after a warm-up pass.
 * 2. Its cost to ingest: the turns appended to a SQLite file as events (the write acknowledgement, which
 *    extraction does not touch), then the learner's graph step over them in pages of 256 (extraction plus the
 *    entity and relation writes), each as turns/s; median of 3 fresh databases.
 * Run it under `nice -n 10` on a shared machine and note the load (printed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { openSqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import { contentHash } from '../src/core/text.js';
import { newId } from '../src/core/ids.js';
import { ruleExtractor } from '../src/learn/graph/extract-llm.js';
import { GraphLearner } from '../src/learn/graph/learn.js';
import { extractFromTurn } from '../src/learn/graph/rules.js';
import type { NewEvent } from '../src/ports/storage.js';
import { loadLocomo } from './locomo/dataset.js';
import { median, round } from './stats.js';

const program = new Command()
  .requiredOption('--data <file>', 'LoCoMo JSON (locomo10.json)')
  .option('--runs <n>', 'passes (median reported)', '3')
  .option('--json', 'print the report as JSON', false);
const o = program.parse(process.argv).opts<{ data: string; runs: string; json: boolean }>();
const runs = Number(o.runs);

const conversations = loadLocomo(o.data);
const turns = conversations.flatMap((c) => c.turns.map((t) => ({ conv: c.id, ...t })));
const load = () => loadavg().map((x) => round(x, 2));

function extractPass(): number {
  const t0 = performance.now();
  let previous: string[] = [];
  let relations = 0;
  for (const t of turns) {
    const x = extractFromTurn({ text: t.text, speaker: t.speaker }, previous);
    previous = x.people;
    relations += x.relations.length;
  }
  const secs = (performance.now() - t0) / 1000;
  if (relations === 0) throw new Error('no relation extracted');
  return turns.length / secs;
}

async function ingestPass(): Promise<{ append: number; graph: number; entities: number; relations: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-graph-bench-'));
  const storage = await openSqliteStorage({ path: join(dir, 'bench.db') });
  try {
    await storage.init({ embeddingModel: 'none', dimension: 8 });
    const events: NewEvent[] = turns.map((t) => ({
      id: newId('event'),
      tenant: t.conv,
      sessionId: `S${t.session}`,
      ts: t.ts,
      recordedAt: t.ts,
      type: 'message',
      actor: 'user',
      name: t.speaker,
      content: t.text,
      tags: [],
      importance: 0.5,
      metadata: {},
      contentHash: contentHash(t.text),
      pii: { scrubbed: false, counts: {} },
    }));
    const t0 = performance.now();
    for (let i = 0; i < events.length; i += 256) await storage.appendEvents(events.slice(i, i + 256));
    const appendSecs = (performance.now() - t0) / 1000;
    const learner = new GraphLearner(storage, { now: () => Date.now() }, ruleExtractor(), 'extraction');
    let entities = 0;
    let relations = 0;
    const t1 = performance.now();
    for (const c of conversations) {
      let afterSeq = 0;
      for (;;) {
        const page = await storage.queryEvents({ tenant: c.id, afterSeq, limit: 256, now: Date.now() });
        if (page.length === 0) break;
        const r = await learner.learn(c.id, page);
        entities += r.entities;
        relations += r.relations;
        afterSeq = page.at(-1)!.seq;
      }
    }
    const graphSecs = (performance.now() - t1) / 1000;
    return { append: events.length / appendSecs, graph: events.length / graphSecs, entities, relations };
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const loadBefore = load();
extractPass(); // warm-up: JIT and compromise's lexicon
const extract = Array.from({ length: runs }, extractPass);
const ingest = [];
for (let i = 0; i < runs; i++) ingest.push(await ingestPass());
const report = {
  turns: turns.length,
  extractTurnsPerSec: round(median(extract), 0),
  extractRuns: extract.map((x) => round(x, 0)),
  appendTurnsPerSec: round(median(ingest.map((x) => x.append)), 0),
  graphStepTurnsPerSec: round(median(ingest.map((x) => x.graph)), 0),
  entitiesPerPass: ingest[0]!.entities,
  relationsPerPass: ingest[0]!.relations,
  load: { before: loadBefore, after: load() },
};
if (o.json) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`turns: ${report.turns}`);
  console.log(`rule extraction, one core: ${report.extractTurnsPerSec} turns/s (runs ${report.extractRuns.join(', ')})`);
  console.log(`ingest: append ${report.appendTurnsPerSec} turns/s (acknowledgement path); graph step (extract + write entities/relations) ${report.graphStepTurnsPerSec} turns/s, in the background`);
  console.log(`graph per pass: ${report.entitiesPerPass} entity writes, ${report.relationsPerPass} relations`);
  console.log(`load average (1/5/15 min): before ${report.load.before.join(' ')}, after ${report.load.after.join(' ')}`);
}
