/**
 * The semantic write path (`remember`): validate → scrub → hash → dedupe (source+hash) → upsert as a new
 * version of its lineage, never overwriting an old version.
 *
 * Which lineage a fact joins:
 *  - an explicit `key` (e.g. `doc_42_para_7`), or the id of any stored version (its lineage);
 *  - else subject+predicate (`user / lives in`): a new value for the same pair is a new version, and the
 *    old version's `validTo` is closed at the new `validFrom` (bi-temporal: both stay queryable);
 *  - else a new lineage keyed by its own id, unless the same source already holds the same text.
 */
import { EngramError } from '../core/errors.js';
import { isId, newId } from '../core/ids.js';
import { assertSafeJson } from '../core/safe-keys.js';
import { assertCleanText, contentHash, normalizeText } from '../core/text.js';
import type { Fact, JsonObject } from '../core/types.js';
import { parseWith } from '../core/validate.js';
import type { Storage } from '../ports/storage.js';
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
  const hash = contentHash(text.text);
  const scope = { userId: input.userId, agentId: input.agentId, sessionId: input.sessionId, taskId: input.taskId };
  const lineageKey = (input.key === undefined ? undefined : await lineageOf(storage, tenant, input.key)) ?? subjectKey(input.userId, subject?.text, predicate?.text);

  let previous: Fact | undefined;
  if (lineageKey !== undefined) {
    previous = await storage.getLiveFact(tenant, lineageKey, now);
    if (previous?.contentHash === hash) return { fact: previous, status: 'duplicate' };
  } else {
    const same = await storage.findFactByHash(tenant, scope, source?.text, hash, now);
    if (same) return { fact: same, status: 'duplicate' };
  }

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
    text: text.text,
    subject: subject?.text,
    predicate: predicate?.text,
    value: value?.text,
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

function subjectKey(userId: string | undefined, subject: string | undefined, predicate: string | undefined): string | undefined {
  if (!subject || !predicate) return undefined;
  const norm = (s: string) => normalizeText(s).toLowerCase();
  return `sp:${userId ?? ''}|${norm(subject)}|${norm(predicate)}`;
}
