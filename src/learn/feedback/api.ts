/**
 * `createExamplesApi(deps)`: feedback examples (seed 003's episodic examples) as one capability the facade
 * hangs on `memory.examples`: explicit feedback with the toggle rules, automatic conversation analysis,
 * similar-example retrieval and guidance text for the next answer.
 */
import { assertId } from '../../core/ids.js';
import { assertCleanText } from '../../core/text.js';
import type { Example, ExamplePolarity, MemoryEvent, Scope } from '../../core/types.js';
import { HeuristicConversationAnalyzer, type AnalyzedPair, type ConversationAnalyzer } from './analyze.js';
import { LlmConversationAnalyzer } from './analyze-llm.js';
import { normalizeRole, readConversations, lastConversations, type Turn } from './conversations.js';
import type { LearnDeps } from './deps.js';
import { formatGuidance, type Guidance } from './guidance.js';
import {
  analyzeInputSchema,
  feedbackInputSchema,
  guidanceOptionsSchema,
  parseInput,
  similarInputSchema,
  type AnalyzeInput,
  type FeedbackInput,
  type GuidanceOptions,
  type SimilarInput,
} from './input.js';
import { DEFAULT_MIN_SIMILARITY, findSimilarExamples, type SimilarExamples } from './similar.js';
import { recordInferred, toggleFeedback, type FeedbackResult, type InferredAction } from './toggle.js';
import { CONVERSATIONS_ANALYZED } from './analyze.js';

/** How much of a session's timeline the analysis reads when no turns are given. */
const SESSION_EVENTS_READ = 300;

export interface AnalyzedExample extends AnalyzedPair {
  /** What storing it did (absent when `store: false`). */
  action?: InferredAction | undefined;
  exampleId?: string | undefined;
}

export interface AnalysisReport {
  analyzer: string;
  /** Conversations looked at (at most four). */
  conversations: number;
  examples: AnalyzedExample[];
}

export interface ListExamplesInput {
  tenant?: string;
  userId?: string;
  agentId?: string;
  sessionId?: string;
  polarity?: ExamplePolarity;
  limit?: number;
}

export interface ExamplesApi {
  /** Seed 003's feedback button: created, deleted (same feedback again) or flipped (the other feedback). */
  giveFeedback(input: FeedbackInput): Promise<FeedbackResult>;
  /** Reads the latest four conversations and stores the query → final-response pairs the user judged. */
  analyzeConversations(input: AnalyzeInput): Promise<AnalysisReport>;
  /** Stored examples similar to a query, best first, up to `k` of each polarity. */
  similar(input: SimilarInput): Promise<SimilarExamples>;
  /** Similar examples formatted as guidance text for the next answer ("Follow … / Avoid …"). */
  guidance(query: string, opts?: GuidanceOptions): Promise<Guidance>;
  list(input?: ListExamplesInput): Promise<Example[]>;
  delete(id: string, tenant?: string): Promise<boolean>;
}

export interface ExamplesApiOptions {
  /** Replaces the analyzer chosen from deps (heuristic, or LLM with heuristic fallback). */
  analyzer?: ConversationAnalyzer;
}

function eventToTurn(e: MemoryEvent): Turn {
  if (e.type === 'tool_call' || e.type === 'tool_result') return { role: 'tool', content: e.content, tool: e.tool };
  return { role: e.actor === 'tool' ? 'tool' : e.actor, content: e.content, tool: e.tool };
}

export function createExamplesApi(deps: LearnDeps, options: ExamplesApiOptions = {}): ExamplesApi {
  const heuristic = new HeuristicConversationAnalyzer();
  const llmAnalyzer = deps.llm ? new LlmConversationAnalyzer(deps.llm, { fallback: heuristic }) : undefined;
  const tenantOf = (t?: string) => t ?? deps.defaultTenant;
  const scopeOf = (i: { tenant?: string | undefined; userId?: string | undefined; agentId?: string | undefined; sessionId?: string | undefined; taskId?: string | undefined }): Scope => ({
    tenant: tenantOf(i.tenant),
    userId: i.userId,
    agentId: i.agentId,
    sessionId: i.sessionId,
    taskId: i.taskId,
  });

  async function sessionTurns(scope: Scope): Promise<Turn[]> {
    const events = await deps.storage.queryEvents({
      tenant: scope.tenant,
      scope: { sessionId: scope.sessionId, userId: scope.userId, agentId: scope.agentId },
      types: ['message', 'tool_call', 'tool_result'],
      lastN: SESSION_EVENTS_READ,
      now: deps.clock.now(),
    });
    return events.map(eventToTurn);
  }

  const api: ExamplesApi = {
    async giveFeedback(raw) {
      const input = parseInput(feedbackInputSchema, raw, 'feedback');
      return toggleFeedback(deps, scopeOf(input), {
        query: deps.scrub(input.query),
        response: deps.scrub(input.response),
        polarity: input.feedback,
        reason: input.reason === undefined ? undefined : deps.scrub(input.reason),
      });
    },

    async analyzeConversations(raw) {
      const input = parseInput(analyzeInputSchema, raw, 'conversation analysis');
      input.turns?.forEach((t, i) => assertCleanText(t.content, `turns.${i}.content`));
      const scope = scopeOf(input);
      const turns: Turn[] = input.turns
        ? input.turns.map((t) => ({ role: normalizeRole(t.role), content: deps.scrub(t.content), tool: t.tool }))
        : await sessionTurns(scope);
      const analyzer = options.analyzer ?? (input.useLlm && llmAnalyzer ? llmAnalyzer : heuristic);
      const pairs = await analyzer.analyze(turns);
      const conversations = lastConversations(readConversations(turns), CONVERSATIONS_ANALYZED).length;
      if (!input.store) return { analyzer: analyzer.name, conversations, examples: pairs };
      const examples: AnalyzedExample[] = [];
      for (const p of pairs) {
        const r = await recordInferred(deps, scope, { query: p.query, response: p.response, polarity: p.polarity, reason: p.reason });
        examples.push({ ...p, action: r.action, exampleId: r.example.id });
      }
      return { analyzer: analyzer.name, conversations, examples };
    },

    async similar(raw) {
      const input = parseInput(similarInputSchema, raw, 'similar examples');
      return findSimilarExamples(deps, {
        tenant: tenantOf(input.tenant),
        scope: { userId: input.userId, agentId: input.agentId },
        query: input.query,
        k: input.k,
        minSimilarity: input.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
      });
    },

    async guidance(query, rawOpts = {}) {
      const opts = parseInput(guidanceOptionsSchema, rawOpts, 'guidance options');
      const { maxTokens, ...similarOpts } = opts;
      const found = await api.similar({ ...similarOpts, query });
      return formatGuidance(found, deps.tokens, maxTokens);
    },

    async list(input = {}) {
      return deps.storage.listExamples({
        tenant: tenantOf(input.tenant),
        scope: { userId: input.userId, agentId: input.agentId, sessionId: input.sessionId },
        ...(input.polarity ? { polarity: input.polarity } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
      });
    },

    async delete(id, tenant) {
      assertId('example', id);
      return deps.storage.deleteExample(tenantOf(tenant), id);
    },
  };
  return api;
}
