/**
 * The Engram agent. Retrieval is `getContext(report)` over learned memory, scoped to the round's task: episodes
 * (with outcome labels, corrections and root causes) and facts (with confidence and versions). After the
 * decision, the round goes onto the timeline as events of that task (report, notes, attempted fix with its
 * assumption), and `recordOutcome` on the retrieval that informed the decision logs the outcome (with the root
 * cause) and the correction, closes the round's episode, links it to exactly what was retrieved and reinforces
 * or contradicts the retrieved facts.
 */
import type { ContextConfigInput } from '../../../src/index.js';
import type { Fact, JsonObject, Outcome } from '../../../src/index.js';
import type { Memory } from '../../../src/index.js';
import { precedentsFromContext } from '../decide/precedents.js';
import type { ScenarioRound } from '../format.js';
import { roundTexts, type FactReport, type Retrieval, type ScenarioAgent } from './agent.js';

export const ENGRAM_TOP_K = 5;

/**
 * Context for a decision: no recent-events window (the new round has none yet), the top memories of learned
 * kinds. `task_id` scopes what recordOutcome logs to the round's own stream; it does not filter retrieval.
 */
export function engramContextConfig(taskId: string, topK = ENGRAM_TOP_K): ContextConfigInput {
  return {
    task_id: taskId,
    episodic_window: { mode: 'none', n: 0 },
    semantic_retrieval: { top_k: topK, kinds: ['episode', 'fact'] },
    merge_policy: { token_budget: 4000 },
  };
}

/** The round's scripted outcome as an Engram outcome label. */
export function outcomeLabel(o: ScenarioRound['outcome']): Outcome {
  return o.toUpperCase() as Outcome;
}

export function taskIdOf(round: Pick<ScenarioRound, 'round_num'>): string {
  return `round-${round.round_num}`;
}

function roundOfTask(taskId: string | null): number | null {
  const m = taskId ? /^round-(\d+)$/.exec(taskId) : null;
  return m ? Number(m[1]) : null;
}

export function createEngramAgent(memory: Memory, opts: { topK?: number; tenant?: string } = {}): ScenarioAgent {
  const tenant = opts.tenant ?? memory.config.defaultTenant;
  return {
    name: 'engram',
    embed: (texts) => memory.embedder.embed(texts),
    async retrieve(report, round): Promise<Retrieval> {
      // Everything written so far must be embedded before the read, or the last round is invisible to vectors.
      await memory.flush();
      const ctx = await memory.getContext(report, { ...engramContextConfig(taskIdOf(round), opts.topK), tenant });
      return {
        retrievalId: ctx.retrievalId,
        items: ctx.items.map((i) => ({
          id: i.id,
          kind: i.kind,
          outcome: i.episode && i.episode.outcome !== 'UNKNOWN' ? i.episode.outcome : null,
          fromRound: roundOfTask(i.provenance.taskId),
          text: i.text,
        })),
        precedents: precedentsFromContext(ctx),
        contextText: ctx.text,
      };
    },
    async learn(round, retrieval): Promise<void> {
      await memory.logEvents(roundEvents(round, tenant));
      if (retrieval.retrievalId) {
        await memory.recordOutcome(retrieval.retrievalId, outcomeLabel(round.outcome), {
          rootCause: round.actual_root_cause,
          ...(round.correction ? { correction: round.correction } : {}),
          tenant,
        });
      }
      if (round.trigger_fact_extraction) await memory.learn.consolidate({ tenant });
    },
    async facts(): Promise<FactReport[]> {
      await memory.flush();
      return learnedFacts(memory, tenant);
    },
    close: () => memory.close(),
  };
}

/**
 * The round up to its outcome as timeline events of its own task, in the order an investigation produces them.
 * The outcome and correction follow through recordOutcome (same texts as the baseline's chunks).
 */
export function roundEvents(round: ScenarioRound, tenant: string): Array<Record<string, unknown>> {
  const t = roundTexts(round);
  const base = { tenant, taskId: taskIdOf(round), ...(round.state_label ? { stateLabel: round.state_label } : {}) };
  const events: Array<Record<string, unknown>> = [
    { ...base, type: 'message', actor: 'user', content: t.report, metadata: { service: round.service } },
    ...t.notes.map((n) => ({ ...base, type: 'observation', actor: 'agent', content: n })),
  ];
  const assumption: JsonObject = round.assumption ? { assumption: round.assumption } : {};
  if (t.attemptedFix) events.push({ ...base, type: 'decision', actor: 'agent', content: t.attemptedFix, metadata: assumption });
  else if (t.assumption) events.push({ ...base, type: 'note', actor: 'agent', content: t.assumption, metadata: assumption });
  return events;
}

/** A closing version's retirement reason (learn/engine/retire.ts `metadata.retired`), if it is one. */
function retiredReason(f: Fact): { retired?: string } {
  const r = f.metadata.retired;
  if (!r || typeof r !== 'object' || Array.isArray(r)) return {};
  return { retired: typeof r.reason === 'string' ? r.reason : 'retired' };
}

/** Learned facts (not document chunks), each with all its versions, oldest first. */
export async function learnedFacts(memory: Memory, tenant: string): Promise<FactReport[]> {
  const live = await memory.storage.listFacts({ tenant, includeExpired: true, limit: 1000, now: Date.now() });
  const keys = [...new Set(live.filter((f) => f.kind !== 'chunk').map((f) => f.key))];
  const out: FactReport[] = [];
  for (const key of keys) {
    const versions: Fact[] = await memory.factHistory(key, tenant);
    out.push({
      key,
      kind: versions[0]?.kind ?? 'fact',
      versions: versions.map((f) => ({
        version: f.version,
        text: f.text,
        confidence: f.confidence,
        supportCount: f.supportCount,
        contradictCount: f.contradictCount,
        live: f.expiredAt === undefined,
        ...retiredReason(f),
      })),
    });
  }
  return out;
}
