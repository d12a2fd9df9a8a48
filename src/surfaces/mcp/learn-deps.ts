/**
 * Builds the feedback-example and working-memory capabilities from a `Memory`'s public parts, for a facade
 * that does not carry them yet (`memory.examples` / `memory.working`). The facade's own capabilities win when
 * present; this is the bridge until then, and the reference for wiring `LearnDeps` in `createMemory`.
 */
import { createTokenCounter } from '../../core/tokens.js';
import { createExamplesApi } from '../../learn/feedback/api.js';
import type { LearnDeps } from '../../learn/feedback/deps.js';
import type { Memory } from '../../memory.js';
import { systemClock } from '../../ports/clock.js';
import type { Llm } from '../../ports/llm.js';
import { createWorkingMemoryApi } from '../../working/api.js';
import type { WorkingMemoryOptionsInput } from '../../working/options.js';
import { createScrubber } from '../../write/scrub.js';
import type { McpMemory } from './facade.js';

export interface LearnDepsOptions {
  llm?: Llm | undefined;
  onBackgroundError?: (e: unknown) => void;
}

export function learnDepsFromMemory(memory: Memory, opts: LearnDepsOptions = {}): LearnDeps {
  const scrubber = createScrubber(memory.config.pii);
  return {
    storage: memory.storage,
    embedQuery: async (text) => {
      try {
        return (await memory.embedder.embed([text]))[0];
      } catch (e) {
        // Similar-example retrieval degrades to lexical rather than failing.
        opts.onBackgroundError?.(e);
        return undefined;
      }
    },
    clock: systemClock,
    tokens: createTokenCounter(memory.config.tokenizer.encoding),
    llm: opts.llm,
    // The facade has no public "wake the indexer"; flushing without the learner drains the write queue and embeds
    // what is pending.
    notifyIndexer: () => {
      memory.flush({ learn: false }).catch((e: unknown) => opts.onBackgroundError?.(e));
    },
    defaultTenant: memory.config.defaultTenant,
    scrub: (text) => scrubber.scrub(text).text,
    remember: async (text, meta) => {
      const r = await memory.remember({
        text,
        tenant: meta.tenant,
        userId: meta.userId,
        agentId: meta.agentId,
        sessionId: meta.sessionId,
        taskId: meta.taskId,
        source: meta.source,
        tags: meta.tags ?? [],
        metadata: meta.metadata ?? {},
      });
      return { id: r.fact.id };
    },
    search: async (query, o) => {
      const hits = await memory.search({ query, tenant: o.tenant, userId: o.userId, agentId: o.agentId, k: o.k, ...(o.kinds ? { kinds: o.kinds } : {}) });
      return hits.map((h) => ({ id: h.doc.refId, kind: h.doc.kind, text: h.doc.text, score: h.score }));
    },
  };
}

type FacadeWithLearning = Memory & Partial<Pick<McpMemory, 'examples' | 'working'>>;

/** The facade as the MCP server sees it: its own `examples`/`working` when it has them, else built here. */
export function withLearning(memory: FacadeWithLearning, opts: LearnDepsOptions & { working?: WorkingMemoryOptionsInput } = {}): McpMemory {
  const deps = memory.examples && memory.working ? undefined : learnDepsFromMemory(memory, opts);
  return {
    logEvent: (input) => memory.logEvent(input),
    remember: (input) => memory.remember(input),
    search: (input) => memory.search(input),
    getContext: (query, config) => memory.getContext(query, config),
    getFact: (id, tenant) => memory.getFact(id, tenant),
    forget: (input) => memory.forget(input),
    recordOutcome: (retrievalId, outcome, o) => memory.recordOutcome(retrievalId, outcome, o),
    graph: memory.graph,
    examples: memory.examples ?? createExamplesApi(deps!),
    working: memory.working ?? createWorkingMemoryApi(deps!, opts.working),
    userFacts: (q) =>
      memory.storage
        .listFacts({ tenant: q.tenant ?? memory.config.defaultTenant, scope: { userId: q.userId }, limit: q.limit, now: Date.now() })
        // Superseded versions stay in the store as history; a profile is what holds now.
        .then((facts) => facts.filter((f) => f.expiredAt === undefined)),
    recentEpisodes: (q) =>
      memory.learn.episodes({ tenant: q.tenant, scope: { userId: q.userId, sessionId: q.sessionId }, order: 'desc', limit: q.limit }),
  };
}
