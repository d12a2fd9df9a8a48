/**
 * Consolidation's fact distillation: preference, attribute and relationship facts a user states in conversation
 * ("I prefer dark mode", "I moved to Toronto", "my manager is Sam", "I'm allergic to peanuts") become facts with
 * subject / predicate / value, provenance to the events that stated them, and versions when they change.
 *
 *  - which turns: the tenant's most recent `learn.engine.distill.maxEvents` user turns (actor `user`; messages,
 *    notes, feedback, corrections) — first-person statements are the speaker's, so an agent's "I will …" never
 *    becomes a user fact;
 *  - how they are read: the deterministic patterns (../fact-patterns.ts), or, with an LLM configured and
 *    `distill.method: llm`, the model (../llm-judgements.ts) with the patterns as fallback when it fails;
 *  - who "I" is: the turn's user id, else its speaker name, else "user"; the fact is scoped to the turn's user;
 *  - lineage: subject + predicate by the predicate's conflict strategy (core/predicates.ts, write/facts.ts):
 *    a single-valued predicate gets a new version ("moved to Toronto" supersedes "lives in Montreal", whose
 *    validity closes at the new statement's time), a multi-valued one a lineage per value, `merge` one version
 *    holding both (`llm` acts as `single` here: consolidation asks no per-value question);
 *  - time: a fact is valid from the turn that stated it. A statement older than the live version's start changes
 *    nothing, and one that repeats the live value only adds its event to the provenance count — so running
 *    consolidation again, or over overlapping windows, is idempotent.
 */
import { versionAfter } from './facts.js';
import { strategyFor } from '../../core/predicates.js';
import { contentHash } from '../../core/text.js';
import type { Fact, MemoryEvent } from '../../core/types.js';
import { mergeValues, subjectKey } from '../../write/facts.js';
import { readStatements, resolveSubject, SELF, statementText, type Statement } from '../fact-patterns.js';
import type { EngineContext } from './context.js';

export interface DistilledFact {
  factId: string;
  key: string;
  subject: string;
  predicate: string;
  value: string;
  text: string;
  status: 'created' | 'versioned';
  supersededId?: string | undefined;
  eventIds: string[];
}

export interface DistillReport {
  /** User turns read. */
  turns: number;
  /** Statements found in them. */
  statements: number;
  facts: DistilledFact[];
  method: 'patterns' | 'llm';
}

const TURN_TYPES = ['message', 'note', 'feedback', 'correction'] as const;

/** Statements of one batch of turns, by turn index: the LLM's when configured (patterns if it fails). */
async function statementsOf(ctx: EngineContext, turns: readonly MemoryEvent[]): Promise<{ byTurn: Statement[][]; method: 'patterns' | 'llm' }> {
  const patterns = () => turns.map((e) => readStatements(e.content));
  if (!ctx.statementExtractor || turns.length === 0) return { byTurn: patterns(), method: 'patterns' };
  try {
    const found = await ctx.statementExtractor(turns.map((e) => e.content));
    const byTurn: Statement[][] = turns.map(() => []);
    for (const s of found) byTurn[s.turn]!.push(s);
    return { byTurn, method: 'llm' };
  } catch (e) {
    ctx.onError(e);
    return { byTurn: patterns(), method: 'patterns' };
  }
}

function who(e: MemoryEvent): string {
  return e.name ?? 'The user';
}

export async function distillFacts(ctx: EngineContext, tenant: string): Promise<DistillReport> {
  const now = ctx.clock.now();
  const { maxEvents } = ctx.settings.engine.distill;
  const events = (await ctx.storage.queryEvents({ tenant, types: [...TURN_TYPES], lastN: maxEvents, now })).filter((e) => e.actor === 'user');
  const turns = [...events].sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  const report: DistillReport = { turns: turns.length, statements: 0, facts: [], method: 'patterns' };
  const BATCH = 40;
  for (let i = 0; i < turns.length; i += BATCH) {
    const batch = turns.slice(i, i + BATCH);
    const { byTurn, method } = await statementsOf(ctx, batch);
    report.method = method;
    for (const [j, statements] of byTurn.entries()) {
      const event = batch[j]!;
      for (const st of statements) {
        if (st.subject !== SELF) continue; // the speaker's own facts only
        report.statements++;
        const written = await writeStatement(ctx, tenant, event, st, now);
        if (written) report.facts.push(written);
      }
    }
  }
  return report;
}

async function writeStatement(ctx: EngineContext, tenant: string, event: MemoryEvent, st: Statement, now: number): Promise<DistilledFact | undefined> {
  const subject = resolveSubject(st, { userId: event.userId, name: event.name });
  const strategy = strategyFor(ctx.factPolicy, st.predicate);
  const key = subjectKey(event.userId, subject, st.predicate, strategy === 'multi' ? st.value : undefined)!;
  const live = await ctx.storage.getLiveFact(tenant, key, now);
  const sameValue = live?.value !== undefined && live.value.toLowerCase() === st.value.toLowerCase();
  if (live && (sameValue || (live.validFrom ?? live.recordedAt) > event.ts)) return undefined;
  if (live?.provenance.eventIds?.includes(event.id)) return undefined;
  let text = statementText(st, who(event));
  let value = st.value;
  if (strategy === 'merge' && live) ({ text, value } = mergeValues(live, { text, value }) as { text: string; value: string });
  const fact: Fact = {
    ...versionAfter(live, key, now),
    tenant,
    userId: event.userId,
    agentId: event.agentId,
    kind: st.kind === 'preference' ? 'preference' : 'fact',
    text,
    subject,
    predicate: st.predicate,
    value,
    tags: ['distilled', st.kind],
    pii: false,
    piiReport: { scrubbed: false, counts: {} },
    metadata: { distilled: { kind: st.kind, sentence: st.sentence.slice(0, 300) } },
    confidence: 0.8,
    supportCount: 0,
    contradictCount: 0,
    importance: Math.max(0.6, event.importance),
    validFrom: event.ts,
    recordedAt: now,
    contentHash: contentHash(text),
    provenance: { origin: 'consolidation', eventIds: [event.id], note: `stated by the user (${st.kind})` },
  };
  const { fact: stored } = await ctx.storage.putFact(fact);
  return {
    factId: stored.id,
    key,
    subject,
    predicate: st.predicate,
    value,
    text,
    status: live ? 'versioned' : 'created',
    ...(live ? { supersededId: live.id } : {}),
    eventIds: [event.id],
  };
}
