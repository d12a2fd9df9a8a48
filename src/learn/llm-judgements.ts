/**
 * The small LLM judgements of issue H, each a `generateObject` call with a zod schema (native structured output
 * where the provider has it, one re-ask on invalid output) and each optional — the deterministic path decides
 * when no LLM is configured or the call fails:
 *
 *   conflictJudge     read path (read/conflicts.ts): is a detected pair a real contradiction, which side holds?
 *   conflictDecider   write path (write/facts.ts, predicates with the `llm` strategy): replace, keep both, merge?
 *   importanceRater   ingest: a 1–10 poignancy rating per event (Generative Agents), mapped to 0..1;
 *   statementExtractor consolidation: preference / attribute / relationship facts stated in conversation turns.
 */
import { z } from 'zod';
import { generateObject } from '../adapters/llms/generate-object.js';
import type { Llm } from '../ports/llm.js';
import type { ConflictJudge } from '../read/conflicts.js';
import type { ConflictQuestion, ConflictStrategyChoice } from '../write/events.js';
import type { Statement } from './fact-patterns.js';

const judgeSchema = z.object({
  contradicts: z.boolean().describe('true when both cannot hold at the same time'),
  keep: z.enum(['newer', 'older', 'both']).describe('which statement to rely on; both when unsure or both matter'),
  note: z.string().min(1).max(300).describe('one sentence for the reader: what disagrees and what to rely on'),
});

export function llmConflictJudge(llm: Llm): ConflictJudge {
  return async ({ query, reason, fresher, older }) => {
    const r = await generateObject(llm, {
      schema: judgeSchema,
      name: 'conflict_verdict',
      description: 'Whether two memories contradict each other and which to rely on',
      system: 'You check memories retrieved for an AI agent for contradictions. Judge only from the two texts and their dates.',
      prompt: [
        `Query: ${query}`,
        `Detected as: ${reason}`,
        `Newer (${new Date(fresher.ts).toISOString().slice(0, 10)}): ${fresher.text}`,
        `Older (${new Date(older.ts).toISOString().slice(0, 10)}): ${older.text}`,
      ].join('\n'),
      temperature: 0,
    });
    if (!r.contradicts) return { contradicts: false };
    return { contradicts: true, prefer: r.keep === 'newer' ? fresher.id : r.keep === 'older' ? older.id : undefined, note: r.note };
  };
}

const decisionSchema = z.object({
  action: z.enum(['replace', 'keep_both', 'merge']).describe('replace: the new value supersedes the old; keep_both: both hold; merge: one combined statement'),
});

export function llmConflictDecider(llm: Llm): (q: ConflictQuestion) => Promise<ConflictStrategyChoice> {
  return async (q) => {
    const r = await generateObject(llm, {
      schema: decisionSchema,
      name: 'fact_update',
      description: 'How a new value of a fact relates to the current one',
      system: 'You maintain the long-term memory of an AI agent. Decide how a newly stated value relates to the stored one.',
      prompt: [
        `Predicate: ${q.predicate}`,
        `Stored: ${q.previous.text}${q.previous.value ? ` (value: ${q.previous.value})` : ''}`,
        `New: ${q.next.text}${q.next.value ? ` (value: ${q.next.value})` : ''}`,
      ].join('\n'),
      temperature: 0,
    });
    return r.action === 'replace' ? 'single' : r.action === 'keep_both' ? 'multi' : 'merge';
  };
}

const ratingSchema = z.object({
  ratings: z.array(z.number().int().min(1).max(10)).describe('one rating per numbered memory, in order'),
});

const RATE_SYSTEM = [
  'On a scale of 1 to 10, where 1 is purely mundane (e.g. brushing teeth, making bed) and 10 is extremely poignant',
  '(e.g. a break-up, a house fire, a production outage, a commitment or deadline), rate the likely poignancy of each',
  'memory for an assistant that must remember what matters.',
].join(' ');

/** Ratings 1..10 → importance 0..1 (1 → 0.05, 10 → 1). Undefined entries where the model gave too few. */
export function llmImportanceRater(llm: Llm): (texts: readonly string[]) => Promise<(number | undefined)[]> {
  return async (texts) => {
    const r = await generateObject(llm, {
      schema: ratingSchema,
      name: 'importance_ratings',
      description: 'Poignancy ratings of memories',
      system: RATE_SYSTEM,
      prompt: texts.map((t, i) => `${i + 1}. ${t.slice(0, 500)}`).join('\n'),
      temperature: 0,
    });
    return texts.map((_, i) => {
      const x = r.ratings[i];
      return x === undefined ? undefined : Math.round((0.05 + ((x - 1) / 9) * 0.95) * 1000) / 1000;
    });
  };
}

const extractionSchema = z.object({
  facts: z
    .array(
      z.object({
        turn: z.number().int().min(1).describe('number of the turn that states it'),
        predicate: z.string().min(1).max(60).describe('snake_case: lives_in, works_at, prefers, likes, manager, allergic_to, speaks …'),
        value: z.string().min(1).max(120),
        kind: z.enum(['preference', 'attribute', 'relationship']),
      }),
    )
    .max(50),
});

export interface ExtractedStatement extends Statement {
  /** Index into the turns given. */
  turn: number;
}

/** Facts the speaker states about themself in the numbered turns (first person only, as the patterns). */
export function llmStatementExtractor(llm: Llm): (turns: readonly string[]) => Promise<ExtractedStatement[]> {
  return async (turns) => {
    const r = await generateObject(llm, {
      schema: extractionSchema,
      name: 'user_facts',
      description: 'Preferences, attributes and relationships users state about themselves',
      system:
        'Extract durable facts the speaker states about themself (preferences, attributes, relationships). Skip questions, hypotheticals, negations and anything said about someone else.',
      prompt: turns.map((t, i) => `${i + 1}. ${t.slice(0, 1000)}`).join('\n'),
      temperature: 0,
    });
    return r.facts.flatMap((f) => {
      const i = f.turn - 1;
      if (i < 0 || i >= turns.length) return [];
      return [{ subject: 'self', predicate: f.predicate.toLowerCase().replace(/[\s-]+/g, '_'), value: f.value.trim(), kind: f.kind, sentence: turns[i]!, turn: i }];
    });
  };
}
