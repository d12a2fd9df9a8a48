/**
 * The relation QA set's file format (bench/fixtures/relations/README.md): a zod schema, a loader and the static
 * checks (every hop's evidence exists and one of its accept alternatives matches an evidence turn).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { loadFixtureDir } from '../lib/eval-suite.js';
import { containsInOrder } from '../lib/keywords.js';

export const CATEGORIES = ['single-hop', 'direction', 'multi-hop', 'as-of'] as const;
export const ENTITY_TYPES = ['person', 'org', 'place', 'project', 'thing'] as const;
export type Category = (typeof CATEGORIES)[number];

export const DEFAULT_RELATIONS_DIR = resolve(fileURLToPath(new URL('../fixtures/relations', import.meta.url)));

const id = z.string().min(1).max(100);
const isoTime = z.iso.datetime();

const hopSchema = z.object({ evidence: z.array(id).min(1), accept: z.array(z.array(z.string().min(1)).min(1)).min(1) }).strict();

const questionSchema = z
  .object({
    id,
    category: z.enum(CATEGORIES),
    question: z.string().min(1),
    as_of: isoTime.optional(),
    answer: z.string().min(1),
    hops: z.array(hopSchema).min(1).max(3),
  })
  .strict()
  .refine((q) => (q.category === 'as-of') === (q.as_of !== undefined), { message: 'as-of questions, and only they, carry as_of' })
  .refine((q) => (q.category === 'multi-hop') === (q.hops.length > 1), { message: 'multi-hop questions, and only they, have several hops' });

export const relationConversationSchema = z
  .object({
    id,
    description: z.string().min(1),
    entities: z.array(z.object({ name: z.string().min(1), type: z.enum(ENTITY_TYPES) }).strict()).min(1),
    turns: z.array(z.object({ id, ts: isoTime, session: id, speaker: z.string().min(1), text: z.string().min(1) }).strict()).min(1),
    questions: z.array(questionSchema).min(1),
  })
  .strict();

export type RelationConversation = z.infer<typeof relationConversationSchema>;
export type Question = RelationConversation['questions'][number];
export type Hop = Question['hops'][number];

export function loadRelationSet(dir: string = DEFAULT_RELATIONS_DIR): RelationConversation[] {
  return loadFixtureDir(dir, relationConversationSchema);
}

/** What is wrong with a conversation's questions, one line each; empty when nothing is. */
export function relationProblems(c: RelationConversation): string[] {
  const out: string[] = [];
  const turns = new Map(c.turns.map((t) => [t.id, t]));
  if (turns.size !== c.turns.length) out.push(`${c.id}: a turn id is used twice`);
  const qids = new Set(c.questions.map((q) => q.id));
  if (qids.size !== c.questions.length) out.push(`${c.id}: a question id is used twice`);
  const times = c.turns.map((t) => Date.parse(t.ts));
  if (times.some((t, i) => i > 0 && t < times[i - 1]!)) out.push(`${c.id}: turns are not in time order`);
  const last = Math.max(...times);
  for (const q of c.questions) {
    if (q.as_of !== undefined && Date.parse(q.as_of) >= last) out.push(`${c.id} ${q.id}: as_of is not before the last turn, so it asks nothing about the past`);
    q.hops.forEach((h, i) => {
      const missing = h.evidence.filter((e) => !turns.has(e));
      if (missing.length > 0) out.push(`${c.id} ${q.id} hop ${i + 1}: no turn ${missing.join(', ')}`);
      else if (!h.evidence.some((e) => h.accept.some((a) => containsInOrder(turns.get(e)!.text, a)))) {
        out.push(`${c.id} ${q.id} hop ${i + 1}: no accept alternative matches an evidence turn`);
      }
    });
  }
  return out;
}
