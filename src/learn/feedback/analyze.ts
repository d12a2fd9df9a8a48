/**
 * Automatic conversation analysis (seed 003): over the latest four conversations, find each substantive
 * query → final response pair the user judged, explicitly or implicitly. The heuristic analyzer reads the
 * indicators in `indicators.ts`; the LLM analyzer (analyze-llm.ts) sits behind the same interface and is
 * grounded in turn numbers, so the stored texts are always the user's and the agent's own words.
 */
import type { ExamplePolarity } from '../../core/types.js';
import { clip } from '../text.js';
import { judgedPairs, lastConversations, readConversations, type Conversation, type Evaluation, type Turn } from './conversations.js';
import type { FeedbackCue } from './indicators.js';

/** The seed's short-term buffer: "typically containing the latest four conversations". */
export const CONVERSATIONS_ANALYZED = 4;

export interface AnalyzedPair {
  query: string;
  response: string;
  polarity: ExamplePolarity;
  reason: string;
  queryTurn: number;
  responseTurn: number;
  feedbackTurn: number;
}

export interface ConversationAnalyzer {
  readonly name: string;
  analyze(turns: readonly Turn[], opts?: { signal?: AbortSignal }): Promise<AnalyzedPair[]>;
}

const CUE_LABEL: Record<FeedbackCue['kind'], Record<ExamplePolarity, string>> = {
  explicit: { positive: 'explicit positive feedback', negative: 'explicit negative feedback' },
  resolution: { positive: 'the answer resolved the problem', negative: 'the answer did not resolve the problem' },
  rejection: { positive: 'accepted', negative: 'the user rejected the answer' },
  correction: { positive: 'accepted after correction', negative: 'the user corrected the answer' },
};

export function describeJudgement(label: string, feedbackText: string, tools: readonly string[], polarity: ExamplePolarity): string {
  const toolNote = polarity === 'positive' && tools.length > 0 ? ` Tools used: ${tools.join(', ')}.` : '';
  return `${label}: the user said "${clip(feedbackText, 200)}".${toolNote}`;
}

function toPair(turns: readonly Turn[], c: Conversation, e: Evaluation): AnalyzedPair {
  const polarity = e.cue.polarity;
  const label = `${CUE_LABEL[e.cue.kind][polarity]} ("${e.cue.text}")`;
  return {
    query: e.query,
    response: e.response,
    polarity,
    reason: describeJudgement(label, turns[e.feedbackTurn]!.content, c.tools, polarity),
    queryTurn: e.queryTurn,
    responseTurn: e.responseTurn,
    feedbackTurn: e.feedbackTurn,
  };
}

/** The conversations the analysis looks at, and the index of the first turn of the oldest one. */
export function analysisWindow(turns: readonly Turn[], n = CONVERSATIONS_ANALYZED): { conversations: Conversation[]; firstTurn: number } {
  const conversations = lastConversations(readConversations(turns), n);
  return { conversations, firstTurn: conversations[0]?.queryTurn ?? turns.length };
}

export function analyzeHeuristically(turns: readonly Turn[], n = CONVERSATIONS_ANALYZED): AnalyzedPair[] {
  const { conversations } = analysisWindow(turns, n);
  const owner = new Map<Evaluation, Conversation>();
  for (const c of conversations) for (const e of c.evaluations) owner.set(e, c);
  return judgedPairs(conversations).map((e) => toPair(turns, owner.get(e)!, e));
}

export class HeuristicConversationAnalyzer implements ConversationAnalyzer {
  readonly name = 'heuristic';
  constructor(private readonly conversations = CONVERSATIONS_ANALYZED) {}
  async analyze(turns: readonly Turn[]): Promise<AnalyzedPair[]> {
    return analyzeHeuristically(turns, this.conversations);
  }
}
