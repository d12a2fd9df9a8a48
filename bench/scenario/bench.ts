/**
 * `runScenarioBench`: everything `npm run bench:scenario --` does, callable from tests. Engram runs on a fresh
 * SQLite file in a temp dir with the given embedder (USE-lite by default) and the heuristic reranker; the
 * baseline uses the same embedder in memory. Both are thrown away afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUseLiteEmbedder } from '../../src/index.js';
import { createLlm } from '../../src/index.js';
import { createHeuristicReranker } from '../../src/index.js';
import { openSqliteStorage } from '../../src/index.js';
import type { EngramConfigInput } from '../../src/index.js';
import type { LlmConfig } from '../../src/index.js';
import type { Embedder } from '../../src/index.js';
import { createMemory } from '../../src/index.js';
import type { AgentName, ScenarioAgent } from './agents/agent.js';
import { createBaselineAgent } from './agents/baseline-agent.js';
import { createEngramAgent } from './agents/engram-agent.js';
import { heuristicDecider, type Decider } from './decider.js';
import { loadScenarioFile, type Scenario } from './format.js';
import { createLlmDecider } from './llm-decider.js';
import { scenarioReport, type ScenarioReport } from './report.js';
import { runScenario, type RoundResult } from './runner.js';

export interface ScenarioBenchOptions {
  /** Scenario file (required unless `scenario` is given). */
  scenarioPath?: string;
  /** An already parsed scenario (then `scenarioPath` only labels the report). */
  scenario?: Scenario;
  /** Decide through this LLM instead of the case-based procedure. */
  llm?: LlmConfig;
  agents?: AgentName[];
  /** Shared by both agents; not closed here. Defaults to a private USE-lite on the calling thread. */
  embedder?: Embedder;
  /** Extra engine config for the Engram agent (e.g. learn settings). */
  engramConfig?: EngramConfigInput;
  onRound?: (r: RoundResult) => void;
}

export async function runScenarioBench(opts: ScenarioBenchOptions = {}): Promise<ScenarioReport> {
  const path = opts.scenarioPath ?? 'scenario';
  const scenario = opts.scenario ?? (await loadScenarioFile(path));
  const names = opts.agents ?? ['engram', 'baseline'];
  const ownEmbedder = opts.embedder ? undefined : createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 32 });
  const embedder = opts.embedder ?? ownEmbedder!;
  await embedder.init();
  const decider = deciderFor(opts.llm);
  const dir = mkdtempSync(join(tmpdir(), 'engram-scenario-'));
  const agents: ScenarioAgent[] = [];
  try {
    for (const name of names) agents.push(name === 'engram' ? await openEngramAgent(dir, embedder, opts.engramConfig) : createBaselineAgent(embedder));
    const run = await runScenario(scenario, agents, decider, { ...(opts.onRound ? { onRound: opts.onRound } : {}) });
    return scenarioReport(path, scenario, run, names);
  } finally {
    for (const a of agents) await a.close().catch(() => undefined);
    await ownEmbedder?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function deciderFor(cfg: LlmConfig | undefined): Decider {
  const llm = cfg ? createLlm(cfg) : undefined;
  return llm ? createLlmDecider(llm) : heuristicDecider;
}

async function openEngramAgent(dir: string, embedder: Embedder, config: EngramConfigInput = {}): Promise<ScenarioAgent> {
  const storage = await openSqliteStorage({ path: join(dir, 'engram.db') });
  const memory = await createMemory({
    storage,
    // The embedder is shared with the baseline and owned by the caller: Engram's close must not close it.
    embedder: { get model() { return embedder.model; }, get dimension() { return embedder.dimension; }, init: () => embedder.init(), embed: (t, o) => embedder.embed(t, o), close: async () => undefined },
    reranker: createHeuristicReranker(),
    config: { retention: { sweepIntervalMinutes: 0 }, ...config },
  });
  return createEngramAgent(memory);
}
