/**
 * The conversation set's file format (bench/fixtures/conversations/README.md): a zod schema, a loader, and the
 * static checks that keep each expectation honest (satisfiable from what the caller may see, forbidden items
 * really belonging to someone else). The checks read only the fixture, never the engine.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { loadFixtureDir } from '../lib/eval-suite.js';
import { containsAll, type Alternative } from '../lib/keywords.js';

export const DOMAINS = ['support', 'coding', 'assistant', 'sales'] as const;
export const FORBIDDEN_REASONS = ['other_user', 'stale', 'irrelevant'] as const;
export type Domain = (typeof DOMAINS)[number];
export type ForbiddenReason = (typeof FORBIDDEN_REASONS)[number];

export const DEFAULT_FIXTURES_DIR = resolve(fileURLToPath(new URL('../fixtures/conversations', import.meta.url)));

const id = z.string().min(1).max(100);
const isoTime = z.iso.datetime();
const json: z.ZodType<unknown> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(json), z.record(z.string(), json)]));
const alternatives = z.array(z.array(z.string().min(1)).min(1)).min(1);

const documentSchema = z.object({ id, ts: isoTime, text: z.string().min(1), source: z.string().min(1).optional(), key: id.optional() }).strict();

const factSchema = z
  .object({
    id,
    ts: isoTime,
    user_id: id,
    text: z.string().min(1),
    key: id.optional(),
    subject: z.string().min(1).optional(),
    predicate: z.string().min(1).optional(),
    value: z.string().min(1).optional(),
    valid_from: isoTime.optional(),
    valid_to: isoTime.optional(),
  })
  .strict();

const eventSchema = z
  .object({
    id,
    ts: isoTime,
    user_id: id,
    session_id: id,
    actor: z.enum(['user', 'agent', 'tool', 'system']),
    type: z.enum(['message', 'tool_call', 'tool_result', 'outcome', 'correction', 'note']).optional(),
    content: z.string().min(1),
    tool: z.string().min(1).optional(),
    args: json.optional(),
    result: json.optional(),
  })
  .strict()
  .refine((e) => (e.type === 'tool_call') === (e.tool !== undefined), { message: 'a tool_call names its tool, and only a tool_call does' });

const requiredSchema = z.object({ any: alternatives, note: z.string().optional() }).strict();
const forbiddenSchema = z
  .object({ reason: z.enum(FORBIDDEN_REASONS), any: alternatives, note: z.string().optional(), unless: z.array(z.string().min(1)).optional() })
  .strict();

const checkpointSchema = z
  .object({
    id,
    user_id: id,
    session_id: id,
    query: z.string().min(1),
    must_contain: z.array(requiredSchema),
    must_not_contain: z.array(forbiddenSchema),
  })
  .strict();

export const conversationSchema = z
  .object({
    id,
    domain: z.enum(DOMAINS),
    tenant: id,
    description: z.string().min(1),
    documents: z.array(documentSchema),
    facts: z.array(factSchema),
    events: z.array(eventSchema).min(1),
    checkpoints: z.array(checkpointSchema).min(1),
  })
  .strict();

export type Conversation = z.infer<typeof conversationSchema>;
export type Checkpoint = Conversation['checkpoints'][number];
export type Required = z.infer<typeof requiredSchema>;
export type Forbidden = z.infer<typeof forbiddenSchema>;

export function loadConversations(dir: string = DEFAULT_FIXTURES_DIR): Conversation[] {
  return loadFixtureDir(dir, conversationSchema);
}

interface Record {
  owner: string | null;
  kind: 'document' | 'fact' | 'event';
  session: string | null;
  text: string;
}

function records(c: Conversation): Record[] {
  return [
    ...c.documents.map((d) => ({ owner: null, kind: 'document' as const, session: null, text: d.text })),
    ...c.facts.map((f) => ({ owner: f.user_id, kind: 'fact' as const, session: null, text: f.text })),
    ...c.events.map((e) => ({ owner: e.user_id, kind: 'event' as const, session: e.session_id, text: e.content })),
  ];
}

/** What is wrong with a conversation's expectations, one line each; empty when nothing is. */
export function problems(c: Conversation): string[] {
  const out: string[] = [];
  const all = records(c);
  const ids = [...c.documents, ...c.facts, ...c.events].map((r) => r.id);
  const dup = ids.find((x, i) => ids.indexOf(x) !== i);
  if (dup) out.push(`${c.id}: record id ${dup} is used twice`);
  const cps = c.checkpoints.map((x) => x.id);
  const dupCp = cps.find((x, i) => cps.indexOf(x) !== i);
  if (dupCp) out.push(`${c.id}: checkpoint id ${dupCp} is used twice`);
  const times = c.events.map((e) => Date.parse(e.ts));
  if (times.some((t, i) => i > 0 && t < times[i - 1]!)) out.push(`${c.id}: events are not in time order`);
  if (new Set(c.events.map((e) => e.user_id)).size < 2) out.push(`${c.id}: fewer than two users`);
  for (const cp of c.checkpoints) {
    const at = `${c.id} ${cp.id}`;
    if (!c.events.some((e) => e.user_id === cp.user_id && e.session_id === cp.session_id)) out.push(`${at}: ${cp.user_id} has no session ${cp.session_id}`);
    const visible = all.filter((r) => r.owner === null || r.owner === cp.user_id);
    const others = all.filter((r) => r.owner !== null && r.owner !== cp.user_id);
    const some = (rs: Record[], a: Alternative) => rs.some((r) => containsAll(r.text, a));
    for (const item of cp.must_contain) {
      for (const a of item.any) if (!some(visible, a)) out.push(`${at}: must_contain [${a.join(', ')}] matches nothing the caller may see`);
    }
    for (const item of cp.must_not_contain) {
      for (const a of item.any) {
        const what = `${at}: ${item.reason} [${a.join(', ')}]`;
        if (item.reason === 'other_user') {
          if (!some(others, a)) out.push(`${what} matches no other user's record`);
          if (some(visible, a)) out.push(`${what} matches something the caller may see`);
        } else if (item.reason === 'stale') {
          if (!some(visible.filter((r) => r.kind !== 'event'), a)) out.push(`${what} matches none of the caller's facts or documents`);
        } else {
          if (!some(all, a)) out.push(`${what} matches nothing in the conversation`);
          if (some(visible.filter((r) => r.session === cp.session_id), a)) out.push(`${what} occurs in the caller's current session`);
        }
      }
    }
  }
  return out;
}
