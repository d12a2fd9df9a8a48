/**
 * Seed 003's conversation model for automatic analysis. A conversation is a substantive user query, the
 * agent's turns up to its final response, and the user's next message, which may judge that response. A
 * follow-up (clarification, format request, the answer to the agent's own question) or a correction keeps the
 * conversation open: the query stays the original one and the final response becomes the newer answer, so
 * "give it as JSON" → JSON answer → "perfect" yields (original query, JSON answer, positive).
 *
 * `readConversations` walks the turns once and reports every conversation with the feedback it received;
 * `lastConversations` keeps the newest N (the seed's short-term buffer holds the latest four).
 */
import { readUserMessage, type FeedbackCue, type UserMessageReading } from './indicators.js';

export type Role = 'user' | 'agent' | 'tool' | 'system';

export interface Turn {
  role: Role;
  content: string;
  tool?: string | undefined;
}

/** One judgement of an answer: the pair it applies to and where in the turns it came from. */
export interface Evaluation {
  query: string;
  response: string;
  cue: FeedbackCue;
  queryTurn: number;
  responseTurn: number;
  feedbackTurn: number;
}

export interface Conversation {
  query: string;
  /** Index of the user turn that asked it. */
  queryTurn: number;
  /** Index of the final agent response so far (undefined while the agent has not answered). */
  responseTurn?: number | undefined;
  /** Tools the agent used while answering. */
  tools: string[];
  evaluations: Evaluation[];
}

/** The agent ended its answer by asking the user something specific (not a closing "anything else?"). */
function agentAsked(answer: string | undefined): boolean {
  if (!answer || !/\?\s*$/.test(answer.trim())) return false;
  return !/\b(?:anything else|any other questions?|let me know|can i help|help (?:you )?with anything|does (?:that|this) help)\b/i.test(answer);
}

export function normalizeRole(role: string): Role {
  return role === 'assistant' ? 'agent' : (role as Role);
}

/** Every conversation in the turns, oldest first, with the feedback each one's answers received. */
export function readConversations(turns: readonly Turn[]): Conversation[] {
  const out: Conversation[] = [];
  let current: Conversation | undefined;
  /** After a feedback-only message the answer is settled: the agent's "you're welcome" is not a new answer. */
  let settled = false;
  let lastAnswer: string | undefined;

  turns.forEach((turn, i) => {
    if (turn.role === 'system') return;
    if (turn.role === 'tool') {
      if (current && !settled && turn.tool && !current.tools.includes(turn.tool)) current.tools.push(turn.tool);
      return;
    }
    if (turn.role === 'agent') {
      if (turn.content.trim() === '') return;
      if (current && !settled) current.responseTurn = i;
      lastAnswer = turn.content;
      return;
    }
    const reading: UserMessageReading = readUserMessage(turn.content, { agentAsked: agentAsked(lastAnswer) });
    if (current?.responseTurn !== undefined && reading.cue) {
      current.evaluations.push({
        query: current.query,
        response: turns[current.responseTurn]!.content,
        cue: reading.cue,
        queryTurn: current.queryTurn,
        responseTurn: current.responseTurn,
        feedbackTurn: i,
      });
    }
    const correcting = reading.cue?.polarity === 'negative' && current !== undefined;
    if (reading.request === 'query' && !correcting) {
      current = { query: reading.rest, queryTurn: i, tools: [], evaluations: [] };
      out.push(current);
      settled = false;
    } else if (reading.request === 'followup' || correcting) {
      settled = current === undefined;
    } else if (reading.request === 'meta') {
      // "What can you do?" is not a query worth learning from, and it ends the previous one.
      current = undefined;
    } else {
      settled = true;
    }
  });
  return out;
}

export function lastConversations(conversations: readonly Conversation[], n: number): Conversation[] {
  return conversations.slice(Math.max(0, conversations.length - n));
}

/**
 * The pairs worth storing: each (query, response) judged at least once. When the same answer is judged
 * twice, the later word wins ("thanks!" … "wait, it still fails").
 */
export function judgedPairs(conversations: readonly Conversation[]): Evaluation[] {
  const byPair = new Map<string, Evaluation>();
  for (const c of conversations) {
    for (const e of c.evaluations) byPair.set(`${e.queryTurn}:${e.responseTurn}`, e);
  }
  return [...byPair.values()].sort((a, b) => a.feedbackTurn - b.feedbackTurn);
}
