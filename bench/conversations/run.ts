/**
 * Runs the conversation set: each conversation is written to a fresh embedded memory (a SQLite file in a temp
 * folder, the default offline embedder) through the public API only, with a clock that follows the data, then
 * every checkpoint asks `getContext(query, { tenant, scope: { user_id, session_id } })` and is judged.
 */
import type { EngramConfigInput, Memory } from '../../src/index.js';
import { setClock, share, withFreshMemory, type SetClock, type Share } from '../lib/eval-suite.js';
import { DOMAINS, FORBIDDEN_REASONS, type Checkpoint, type Conversation } from './fixtures.js';
import { judgeCheckpoint, type CheckpointVerdict } from './judge.js';

export interface CheckpointResult extends CheckpointVerdict {
  conversation: string;
  domain: Conversation['domain'];
  checkpoint: string;
  userId: string;
  sessionId: string;
  query: string;
  items: number;
  error?: string;
}

export interface ConversationsReport {
  suite: 'conversations';
  scope: ScopeMode;
  conversations: number;
  checkpoints: number;
  /** Share of must_contain items present. */
  present: Share;
  /** Share of must_not_contain items absent. */
  absent: Share;
  absentByReason: Record<string, Share>;
  byDomain: Record<string, { present: Share; absent: Share }>;
  /** Context items that were records written for another user (found by id). */
  foreignItems: number;
  checkpointsWithForeignItems: number;
  seconds: number;
  results: CheckpointResult[];
}

/**
 * The caller identity passed as `scope`: `session` is the documented call (user and session); `user` and
 * `tenant` (no scope) are diagnostics that show what the other call shapes return.
 */
export const SCOPE_MODES = ['session', 'user', 'tenant'] as const;
export type ScopeMode = (typeof SCOPE_MODES)[number];

export interface RunOptions {
  /** Embedder settings; the default is the engine's (the offline USE-lite encoder). */
  embedder?: EngramConfigInput['embedder'];
  scope?: ScopeMode;
  onConversation?: (results: CheckpointResult[], c: Conversation) => void;
}

const HOUR = 3_600_000;

export async function runConversations(conversations: readonly Conversation[], opts: RunOptions = {}): Promise<ConversationsReport> {
  const started = Date.now();
  const results: CheckpointResult[] = [];
  for (const c of conversations) {
    const rs = await runConversation(c, opts);
    results.push(...rs);
    opts.onConversation?.(rs, c);
  }
  return summarize(conversations.length, results, (Date.now() - started) / 1000, opts.scope ?? 'session');
}

export async function runConversation(c: Conversation, opts: RunOptions = {}): Promise<CheckpointResult[]> {
  const clock = setClock();
  return withFreshMemory({ embedder: opts.embedder, clock }, async (memory) => {
    const ownerOf = await ingest(memory, c, clock);
    await memory.flush({ learn: true });
    const out: CheckpointResult[] = [];
    for (const cp of c.checkpoints) out.push(await ask(memory, c, cp, ownerOf, opts.scope ?? 'session'));
    return out;
  });
}

/** Writes the conversation; returns the owner (user id) of every record id written for a user. */
export async function ingest(memory: Memory, c: Conversation, clock: SetClock): Promise<Map<string, string>> {
  const ownerOf = new Map<string, string>();
  const tenant = c.tenant;
  for (const d of c.documents) {
    clock.at = Date.parse(d.ts);
    await memory.remember({ tenant, text: d.text, kind: 'chunk', ...(d.source ? { source: d.source } : {}), ...(d.key ? { key: d.key } : {}) });
  }
  type Step = { ts: number; order: number; write: () => Promise<void> };
  const steps: Step[] = [
    ...c.facts.map((f, i) => ({
      ts: Date.parse(f.ts),
      order: i,
      write: async () => {
        const r = await memory.remember({
          tenant,
          userId: f.user_id,
          text: f.text,
          ...(f.key ? { key: f.key } : {}),
          ...(f.subject ? { subject: f.subject } : {}),
          ...(f.predicate ? { predicate: f.predicate } : {}),
          ...(f.value ? { value: f.value } : {}),
          ...(f.valid_from ? { validFrom: f.valid_from } : {}),
          ...(f.valid_to ? { validTo: f.valid_to } : {}),
        });
        ownerOf.set(r.fact.id, f.user_id);
      },
    })),
    ...c.events.map((e, i) => ({
      ts: Date.parse(e.ts),
      order: c.facts.length + i,
      write: async () => {
        const r = await memory.logEvent({
          tenant,
          userId: e.user_id,
          sessionId: e.session_id,
          actor: e.actor,
          type: e.type ?? 'message',
          content: e.content,
          ts: e.ts,
          ...(e.tool ? { tool: e.tool } : {}),
          ...(e.args !== undefined ? { args: e.args as never } : {}),
          ...(e.result !== undefined ? { result: e.result as never } : {}),
        });
        ownerOf.set(r.id, e.user_id);
      },
    })),
  ].sort((a, b) => a.ts - b.ts || a.order - b.order);
  for (const s of steps) {
    clock.at = s.ts;
    await s.write();
  }
  clock.at = Math.max(...steps.map((s) => s.ts)) + HOUR;
  return ownerOf;
}

async function ask(memory: Memory, c: Conversation, cp: Checkpoint, ownerOf: ReadonlyMap<string, string>, mode: ScopeMode): Promise<CheckpointResult> {
  const base = { conversation: c.id, domain: c.domain, checkpoint: cp.id, userId: cp.user_id, sessionId: cp.session_id, query: cp.query };
  try {
    const scope = mode === 'session' ? { user_id: cp.user_id, session_id: cp.session_id } : mode === 'user' ? { user_id: cp.user_id } : undefined;
    const ctx = await memory.getContext(cp.query, { tenant: c.tenant, ...(scope ? { scope } : {}) });
    const items = ctx.items.map((i) => ({ id: i.id, kind: i.kind, text: i.text }));
    return { ...base, items: items.length, ...judgeCheckpoint(cp, items, ownerOf) };
  } catch (e) {
    // A failed call satisfies nothing it was asked for and leaks nothing; it is reported, not hidden.
    const verdict = judgeCheckpoint(cp, [], ownerOf);
    return { ...base, items: 0, ...verdict, error: e instanceof Error ? e.message : String(e) };
  }
}

function tally(rs: readonly CheckpointResult[]): { present: Share; absent: Share } {
  const req = rs.flatMap((r) => r.required);
  const forb = rs.flatMap((r) => r.forbidden);
  return { present: share(req.filter((x) => x.ok).length, req.length, 1), absent: share(forb.filter((x) => x.ok).length, forb.length, 1) };
}

export function summarize(conversations: number, results: CheckpointResult[], seconds: number, scope: ScopeMode = 'session'): ConversationsReport {
  const byDomain: ConversationsReport['byDomain'] = {};
  for (const d of DOMAINS) {
    const rs = results.filter((r) => r.domain === d);
    if (rs.length > 0) byDomain[d] = tally(rs);
  }
  const absentByReason: Record<string, Share> = {};
  for (const reason of FORBIDDEN_REASONS) {
    const fs = results.flatMap((r) => r.forbidden).filter((f) => f.reason === reason);
    absentByReason[reason] = share(fs.filter((f) => f.ok).length, fs.length, 1);
  }
  return {
    suite: 'conversations',
    scope,
    conversations,
    checkpoints: results.length,
    ...tally(results),
    absentByReason,
    byDomain,
    foreignItems: results.reduce((n, r) => n + r.foreignItems.length, 0),
    checkpointsWithForeignItems: results.filter((r) => r.foreignItems.length > 0).length,
    seconds: Math.round(seconds * 10) / 10,
    results,
  };
}
