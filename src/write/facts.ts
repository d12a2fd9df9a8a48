/**
 * The semantic write path (`remember`): validate → scrub → hash → dedupe (source+hash) → upsert as a new
 * version of its lineage, never overwriting an old version.
 *
 * Which lineage a fact joins:
 *  - an explicit `key` (e.g. `doc_42_para_7`), or the id of any stored version (its lineage);
 *  - else subject+predicate (`user / lives in`), by the predicate's conflict strategy (core/predicates.ts):
 *    `single` — a new value for the same pair is a new version, and the old version's `validTo` is closed at
 *    the new `validFrom` (bi-temporal: both stay queryable); `multi` — each value is its own lineage (both
 *    current); `merge` — a new version holding the old values and the new one; `llm` — the configured LLM
 *    chooses one of the three for each new value (`single` without one, or when it fails);
 *  - else a new lineage keyed by its own id, unless the same source already holds the same text.
 */
import { EngramError } from '../core/errors.js';
import { isId, newId } from '../core/ids.js';
import { assertSafeJson } from '../core/safe-keys.js';
import { assertCleanText, contentHash, normalizeText } from '../core/text.js';
import type { Fact, JsonObject } from '../core/types.js';
import { parseWith } from '../core/validate.js';
import type { Storage } from '../ports/storage.js';
import { strategyFor, type ConflictStrategy } from '../core/predicates.js';
import { assertJsonClean } from './clean.js';
import type { EventWriteContext } from './events.js';
import { factInputSchema, normalizeKeys, type ParsedFactInput } from './input.js';
import { mergeReports } from './scrub.js';
import { rejectPiiInIdentifiers, SCOPE_ID_FIELDS, scrubOptional } from './pii-policy.js';

/** Fact identifiers (docs/security.md): PII in them is rejected, not scrubbed. */
const FACT_ID_FIELDS = [...SCOPE_ID_FIELDS, 'key'] as const;

export type RememberStatus = 'created' | 'versioned' | 'duplicate';

export interface RememberResult {
  fact: Fact;
  status: RememberStatus;
  /** The version this one replaced, when `status` is `versioned`. */
  supersededId?: string;
}

export function parseFactInput(ctx: EventWriteContext, raw: unknown, path = 'fact'): ParsedFactInput {
  assertSafeJson(raw, path);
  const input = parseWith(factInputSchema(ctx.config.limits.maxContentChars), normalizeKeys(raw), { what: 'fact', prefix: path });
  for (const key of ['text', 'subject', 'predicate', 'value', 'source', 'section', 'key'] as const) {
    const v = input[key];
    if (typeof v === 'string') assertCleanText(v, `${path}.${key}`);
  }
  input.tags.forEach((t, i) => assertCleanText(t, `${path}.tags.${i}`));
  assertJsonClean(input.metadata, `${path}.metadata`);
  rejectPiiInIdentifiers(ctx.scrubber, input, FACT_ID_FIELDS, path);
  if (input.validFrom !== undefined && input.validTo !== undefined && input.validTo < input.validFrom) {
    throw new EngramError('VALIDATION', `${path}.validTo is before validFrom`, {
      issues: [{ path: `${path}.validTo`, message: 'must not be before validFrom' }],
    });
  }
  return input;
}

export async function rememberFact(ctx: EventWriteContext, storage: Storage, raw: unknown): Promise<RememberResult> {
  const input = parseFactInput(ctx, raw);
  const now = ctx.clock.now();
  const s = ctx.scrubber;
  const text = s.scrub(input.text);
  const subject = input.subject === undefined ? undefined : s.scrub(input.subject);
  const value = input.value === undefined ? undefined : s.scrub(input.value);
  const metadata = s.scrubJson(input.metadata);
  const tags = input.tags.map((t) => s.scrub(t));
  const predicate = scrubOptional(s, input.predicate);
  const source = scrubOptional(s, input.source);
  const section = scrubOptional(s, input.section);
  const piiReport = mergeReports(
    text.report,
    ...[predicate, source, section].flatMap((f) => (f ? [f.report] : [])),
    ...(subject ? [subject.report] : []),
    ...(value ? [value.report] : []),
    metadata.report,
    ...tags.map((t) => t.report),
  );
  const tenant = input.tenant ?? ctx.defaultTenant;
  let hash = contentHash(text.text);
  const scope = { userId: input.userId, agentId: input.agentId, sessionId: input.sessionId, taskId: input.taskId };
  let strategy = input.key === undefined ? strategyFor(ctx.config.facts, predicate?.text) : 'single';
  // A multi-valued fact given without a value is told apart by its text.
  let lineageKey =
    (input.key === undefined ? undefined : await lineageOf(storage, tenant, input.key)) ??
    subjectKey(input.userId, subject?.text, predicate?.text, strategy === 'multi' ? (value?.text ?? text.text) : undefined);
  let text_ = text.text;
  let value_ = value?.text;

  let previous: Fact | undefined;
  if (lineageKey !== undefined) {
    previous = await storage.getLiveFact(tenant, lineageKey, now);
    if (previous?.contentHash === hash) return { fact: previous, status: 'duplicate' };
    if (strategy === 'llm') {
      strategy = previous && !sameValue(previous.value, value_) ? await decideStrategy(ctx, previous, { text: text_, value: value_ }) : 'single';
      if (strategy === 'multi') {
        lineageKey = subjectKey(input.userId, subject?.text, predicate?.text, value_ ?? text_);
        previous = lineageKey === undefined ? undefined : await storage.getLiveFact(tenant, lineageKey, now);
        if (previous?.contentHash === hash) return { fact: previous, status: 'duplicate' };
      }
    }
    if (strategy === 'merge' && previous && !sameValue(previous.value, value_)) {
      ({ text: text_, value: value_ } = mergeValues(previous, { text: text_, value: value_ }));
    }
  } else {
    const same = await storage.findFactByHash(tenant, scope, source?.text, hash, now);
    if (same) return { fact: same, status: 'duplicate' };
  }

  hash = contentHash(text_);
  const id = newId('fact');
  const validFrom = input.validFrom ?? now;
  const fact: Fact = {
    id,
    key: lineageKey ?? id,
    version: previous ? previous.version + 1 : 1,
    supersedes: previous?.id,
    tenant,
    ...scope,
    kind: input.kind,
    text: text_,
    subject: subject?.text,
    predicate: predicate?.text,
    value: value_,
    source: source?.text,
    section: section?.text,
    tags: tags.map((t) => t.text),
    pii: input.pii,
    piiReport,
    metadata: metadata.value as JsonObject,
    confidence: input.confidence,
    supportCount: 0,
    contradictCount: 0,
    importance: input.importance,
    validFrom,
    validTo: input.validTo,
    recordedAt: now,
    expiresAt: input.expiresAt,
    contentHash: hash,
    provenance: { origin: 'user' },
  };
  const stored = await storage.putFact(fact);
  if (stored.duplicate) return { fact: stored.fact, status: 'duplicate' };
  return previous
    ? { fact: stored.fact, status: 'versioned', supersededId: previous.id }
    : { fact: stored.fact, status: 'created' };
}

/** A key that is the id of a stored version names that version's lineage (update by any version id). */
async function lineageOf(storage: Storage, tenant: string, key: string): Promise<string> {
  if (!isId('fact', key)) return key;
  return (await storage.getFact(tenant, key))?.key ?? key;
}

const norm = (s: string) => normalizeText(s).toLowerCase();

/** The lineage of subject + predicate (+ value, for a multi-valued predicate). */
export function subjectKey(userId: string | undefined, subject: string | undefined, predicate: string | undefined, value?: string): string | undefined {
  if (!subject || !predicate) return undefined;
  const base = `sp:${userId ?? ''}|${norm(subject)}|${norm(predicate)}`;
  return value ? `${base}|${norm(value)}` : base;
}

function sameValue(a: string | undefined, b: string | undefined): boolean {
  return norm(a ?? '') === norm(b ?? '');
}

const MERGE_SEPARATOR = '; ';

/** The old values and the new one in one version: "English; French", the statements joined. */
export function mergeValues(previous: Pick<Fact, 'text' | 'value'>, next: { text: string; value: string | undefined }): { text: string; value: string | undefined } {
  const values = [...(previous.value ?? '').split(MERGE_SEPARATOR), next.value ?? ''].map((v) => v.trim()).filter(Boolean);
  const unique = values.filter((v, i) => values.findIndex((w) => norm(w) === norm(v)) === i);
  const text = norm(previous.text).includes(norm(next.text)) ? previous.text : `${previous.text.trim()} ${next.text.trim()}`;
  return { text, value: unique.join(MERGE_SEPARATOR) || undefined };
}

/** The LLM's choice for a new value (write context's `decideConflict`); `single` without one or when it fails. */
async function decideStrategy(ctx: EventWriteContext, previous: Fact, next: { text: string; value: string | undefined }): Promise<ConflictStrategy> {
  if (!ctx.decideConflict) return 'single';
  try {
    return await ctx.decideConflict({ previous: { text: previous.text, value: previous.value }, next, predicate: previous.predicate ?? '' });
  } catch (e) {
    ctx.onError?.(e);
    return 'single';
  }
}
