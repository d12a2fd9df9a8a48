/**
 * The LLM conversation analyzer: the model reads the numbered turns of the latest conversations and names,
 * by turn number, each (query, final response, feedback) triple it finds, with the polarity and why. Numbers
 * are checked against the turns (a query is a user turn, the response an agent turn after it, the feedback
 * the user's next message after that response); a triple that does not hold is dropped, so the model can
 * select but never invent text. On unusable output the heuristic analyzer answers instead.
 */
import { z } from 'zod';
import { generateObjectOr } from '../../adapters/llms/generate-object.js';
import type { Llm } from '../../ports/llm.js';
import { clip } from '../text.js';
import { analysisWindow, CONVERSATIONS_ANALYZED, describeJudgement, type AnalyzedPair, type ConversationAnalyzer } from './analyze.js';
import type { Turn } from './conversations.js';
import { readUserMessage } from './indicators.js';

export const llmPairsSchema = z.object({
  pairs: z
    .array(
      z.object({
        query_turn: z.number().int().describe('number of the user turn with the original, substantive query'),
        response_turn: z.number().int().describe('number of the final agent response that the user evaluated'),
        feedback_turn: z.number().int().describe("number of the user's next message, which carries the feedback"),
        feedback: z.enum(['positive', 'negative']),
        reason: z.string().min(1).max(400).describe('what in the feedback shows it, quoting the user briefly'),
      }),
    )
    .max(20),
});

const SYSTEM = [
  'You analyse recent conversations between a user and an AI agent to find learning examples.',
  'A conversation is a user query, the agent turns up to its final response, then the user’s next message.',
  'Find each pair of an original, meaningful user query and the final agent response the user evaluated.',
  'Positive indicators: explicit thanks or praise ("helpful", "thank you", "good"), engagement, resolution.',
  'Negative indicators: explicit negatives ("wrong", "not correct"), rejections, corrections, dissatisfaction.',
  'Only substantive queries count: clarifications, format requests and meta requests are not queries; when the user',
  'asks for another format or a clarification, the query is still the original one and the response the newer answer.',
  'If the user moves on without evaluating an answer, report nothing for it. Report nothing rather than guess.',
].join(' ');

const MAX_TURN_CHARS = 1200;

export interface LlmAnalyzerOptions {
  fallback?: ConversationAnalyzer;
  conversations?: number;
  temperature?: number;
}

export class LlmConversationAnalyzer implements ConversationAnalyzer {
  readonly name: string;

  constructor(
    private readonly llm: Llm,
    private readonly opts: LlmAnalyzerOptions = {},
  ) {
    this.name = `llm:${llm.name}/${llm.model}`;
  }

  async analyze(turns: readonly Turn[], call: { signal?: AbortSignal } = {}): Promise<AnalyzedPair[]> {
    const { firstTurn } = analysisWindow(turns, this.opts.conversations ?? CONVERSATIONS_ANALYZED);
    const shown = turns.map((t, i) => ({ t, n: i + 1 })).slice(firstTurn).filter(({ t }) => t.role !== 'system');
    if (!shown.some(({ t }) => t.role === 'user')) return [];
    const fallback = this.opts.fallback;
    return generateObjectOr(
      this.llm,
      {
        schema: llmPairsSchema,
        name: 'feedback_examples',
        description: 'Query → final response pairs the user evaluated',
        system: SYSTEM,
        prompt: `Turns:\n${shown.map(({ t, n }) => `${n}. [${t.role}${t.tool ? `:${t.tool}` : ''}] ${clip(t.content, MAX_TURN_CHARS)}`).join('\n')}\n\nWhich evaluated pairs do these turns contain?`,
        temperature: this.opts.temperature ?? 0,
        signal: call.signal,
      },
      (reply) => groundedPairs(turns, firstTurn, reply),
      fallback && (() => fallback.analyze(turns, call)),
    );
  }
}

/** The model's pairs that the turns bear out (`isGrounded`), each query → response once. */
function groundedPairs(turns: readonly Turn[], firstTurn: number, reply: z.output<typeof llmPairsSchema>): AnalyzedPair[] {
  const seen = new Set<string>();
  return reply.pairs.flatMap((p): AnalyzedPair[] => {
    const [q, r, f] = [p.query_turn - 1, p.response_turn - 1, p.feedback_turn - 1];
    if (!isGrounded(turns, firstTurn, q, r, f) || seen.has(`${q}:${r}`)) return [];
    seen.add(`${q}:${r}`);
    const tools = toolsBetween(turns, q, r);
    return [
      {
        query: readUserMessage(turns[q]!.content).rest || turns[q]!.content,
        response: turns[r]!.content,
        polarity: p.feedback,
        reason: describeJudgement(p.reason.trim(), turns[f]!.content, tools, p.feedback),
        queryTurn: q,
        responseTurn: r,
        feedbackTurn: f,
      },
    ];
  });
}

/** Query is a user turn in the window, the response a later agent turn, the feedback the next user turn after it. */
function isGrounded(turns: readonly Turn[], first: number, q: number, r: number, f: number): boolean {
  if (q < first || !(q < r && r < f) || f >= turns.length) return false;
  if (turns[q]!.role !== 'user' || turns[r]!.role !== 'agent' || turns[f]!.role !== 'user') return false;
  for (let i = r + 1; i < f; i++) if (turns[i]!.role === 'user') return false;
  return true;
}

function toolsBetween(turns: readonly Turn[], from: number, to: number): string[] {
  const tools = turns.slice(from, to).flatMap((t) => (t.role === 'tool' && t.tool ? [t.tool] : []));
  return [...new Set(tools)];
}
