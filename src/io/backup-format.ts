/**
 * The backup file format, version 1: JSON Lines.
 *
 *   {"kind":"header","format":"engram-backup","version":1,"tenant":"acme","exported_at":"2026-…Z","kinds":["event",…]}
 *   {"kind":"event","record":{…}}           one line per record, kinds in the order of `BACKUP_KINDS`
 *   …
 *   {"kind":"end","counts":{"event":1200,"fact":38,…}}
 *
 * Records are the stored records as they are (camelCase fields, times in epoch milliseconds, ids, seqs,
 * versions and counters kept) without their tenant: the tenant is the header's, or the one import is told to
 * restore into. The closing line counts the records written: a file cut short has no closing line (or wrong
 * counts) and is refused whole. A new record kind is one schema here plus its storage pair (ports/storage/backup.ts).
 */
import { z } from 'zod';
import { ACTORS, EVENT_TYPES, FACT_KINDS, LINK_TYPES, OUTCOMES, PII_KINDS, type Json } from '../core/types.js';
import type { BackupKind, BackupRecordKinds } from '../ports/storage.js';

export const BACKUP_FORMAT = 'engram-backup';
export const BACKUP_VERSION = 1;

/** Export and restore order: a kind comes after the kinds its records point at (evidence after facts). */
export const BACKUP_KINDS = ['event', 'fact', 'fact_evidence', 'episode', 'link', 'procedure', 'example', 'entity', 'relation', 'retrieval', 'working_memory', 'audit'] as const satisfies readonly BackupKind[];

const json: z.ZodType<Json> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(json), z.record(z.string(), json)]));
const jsonObject = z.record(z.string(), json);
const time = z.number().finite();
const opt = <T extends z.ZodTypeAny>(t: T) => t.optional();
const strings = z.array(z.string());
const scope = { userId: opt(z.string()), agentId: opt(z.string()), sessionId: opt(z.string()), taskId: opt(z.string()) };
const graphProvenance = z.strictObject({ origin: z.enum(['user', 'extraction', 'llm', 'import']), eventIds: strings, factIds: strings });
const piiReport = z.strictObject({ scrubbed: z.boolean(), counts: z.partialRecord(z.enum(PII_KINDS), z.number().int().nonnegative()) });

/** The record schemas (a record is stored without `tenant`). Strict: an unknown field is an error, not dropped data. */
const RECORD_SCHEMAS: { [K in BackupKind]: z.ZodType<Omit<BackupRecordKinds[K], 'tenant'>> } = {
  event: z.strictObject({
    id: z.string().min(1),
    seq: z.number().int().positive(),
    ...scope,
    ts: time,
    recordedAt: time,
    type: z.enum(EVENT_TYPES),
    actor: z.enum(ACTORS),
    name: opt(z.string()),
    content: z.string(),
    tool: opt(z.string()),
    args: opt(json),
    result: opt(json),
    stateLabel: opt(z.string()),
    tags: strings,
    importance: z.number().finite(),
    source: opt(z.string()),
    metadata: jsonObject,
    contentHash: z.string(),
    expiresAt: opt(time),
    pii: piiReport,
    redaction: opt(z.strictObject({ at: time, reason: z.string() })),
  }).refine((e) => e.redaction !== undefined || e.contentHash.length > 0, { path: ['contentHash'], message: 'required unless the event is redacted' }),
  fact: z.strictObject({
    id: z.string().min(1),
    key: z.string().min(1),
    version: z.number().int().positive(),
    supersedes: opt(z.string()),
    ...scope,
    kind: z.enum(FACT_KINDS),
    text: z.string(),
    subject: opt(z.string()),
    predicate: opt(z.string()),
    value: opt(z.string()),
    source: opt(z.string()),
    section: opt(z.string()),
    tags: strings,
    pii: z.boolean(),
    piiReport,
    metadata: jsonObject,
    confidence: z.number().finite(),
    supportCount: z.number().int().nonnegative(),
    contradictCount: z.number().int().nonnegative(),
    importance: z.number().finite(),
    validFrom: opt(time),
    validTo: opt(time),
    recordedAt: time,
    expiredAt: opt(time),
    expiresAt: opt(time),
    contentHash: z.string().min(1),
    provenance: z.strictObject({
      origin: z.enum(['user', 'import', 'extraction', 'reflection', 'consolidation']),
      eventIds: opt(strings),
      episodeIds: opt(strings),
      note: opt(z.string()),
    }),
  }),
  fact_evidence: z.strictObject({
    factId: z.string().min(1),
    episodeId: z.string().min(1),
    polarity: z.enum(['support', 'contradict']),
    weight: z.number().finite(),
    at: time,
  }),
  episode: z.strictObject({
    id: z.string().min(1),
    ...scope,
    streamKey: z.string().min(1),
    startSeq: z.number().int(),
    endSeq: z.number().int(),
    startTs: time,
    endTs: time,
    eventIds: strings,
    stateLabel: opt(z.string()),
    summary: z.string(),
    outcome: z.enum(OUTCOMES),
    outcomeDetails: opt(z.string()),
    decisions: strings,
    assumptions: strings,
    corrections: strings,
    rootCause: opt(z.string()),
    importance: z.number().finite(),
    closed: z.boolean(),
    metadata: jsonObject,
    recordedAt: time,
  }),
  link: z.strictObject({
    id: z.string().min(1),
    type: z.enum(LINK_TYPES),
    fromId: z.string().min(1),
    toId: z.string().min(1),
    weight: z.number().finite(),
    origin: z.enum(['explicit', 'inferred', 'reinforced']),
    evidence: opt(z.string()),
    createdAt: time,
  }).refine((l) => l.fromId !== l.toId, { path: ['toId'], message: 'a link must join two different memories' }),
  procedure: z.strictObject({
    id: z.string().min(1),
    ...scope,
    name: z.string().min(1),
    trigger: z.string(),
    steps: strings,
    preconditions: strings,
    successCount: z.number().int().nonnegative(),
    failureCount: z.number().int().nonnegative(),
    notes: strings,
    lastUsedAt: opt(time),
    sourceEpisodeIds: strings,
    createdAt: time,
    updatedAt: time,
  }),
  example: z.strictObject({
    id: z.string().min(1),
    ...scope,
    polarity: z.enum(['positive', 'negative']),
    query: z.string().min(1),
    response: z.string(),
    reason: opt(z.string()),
    origin: z.enum(['feedback', 'analysis']),
    contentHash: z.string().min(1),
    createdAt: time,
  }),
  entity: z.strictObject({
    id: z.string().min(1),
    ...scope,
    name: z.string().min(1),
    entityType: z.string().min(1),
    aliases: strings,
    observations: strings,
    summary: opt(z.string()),
    provenance: graphProvenance,
    createdAt: time,
    updatedAt: time,
  }),
  relation: z.strictObject({
    id: z.string().min(1),
    ...scope,
    sourceId: z.string().min(1),
    targetId: z.string().min(1),
    type: z.string().min(1),
    text: opt(z.string()),
    validFrom: opt(time),
    validTo: opt(time),
    recordedAt: time,
    expiredAt: opt(time),
    confidence: z.number().finite(),
    supersedes: opt(z.string()),
    provenance: graphProvenance,
  }),
  retrieval: z.strictObject({
    id: z.string().min(1),
    query: z.string(),
    createdAt: time,
    itemIds: strings,
    config: json,
    items: opt(z.array(z.strictObject({ id: z.string(), kind: z.string(), section: z.string(), scores: z.record(z.string(), z.number().nullable()) }))),
  }),
  working_memory: z.strictObject({ sessionId: z.string().min(1), version: z.number().int().positive(), state: jsonObject, updatedAt: time, expiresAt: opt(time) }),
  audit: z.strictObject({
    id: z.string().min(1),
    at: time,
    action: z.enum(['redact', 'forget', 'sweep', 'pii_scrub', 'import']),
    targetIds: strings,
    details: z.record(z.string(), z.unknown()),
  }),
};

export const HeaderSchema = z.strictObject({
  kind: z.literal('header'),
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
  tenant: z.string().min(1),
  exported_at: z.string(),
  kinds: z.array(z.string()),
});
export type BackupHeader = z.infer<typeof HeaderSchema>;

export const EndSchema = z.strictObject({ kind: z.literal('end'), counts: z.record(z.string(), z.number().int().nonnegative()) });

export const recordSchema = <K extends BackupKind>(kind: K): z.ZodType<Omit<BackupRecordKinds[K], 'tenant'>> => RECORD_SCHEMAS[kind];

export type BackupLine =
  | BackupHeader
  | { [K in BackupKind]: { kind: K; record: Omit<BackupRecordKinds[K], 'tenant'> } }[BackupKind]
  | z.infer<typeof EndSchema>;

export const isBackupKind = (k: unknown): k is BackupKind => typeof k === 'string' && (BACKUP_KINDS as readonly string[]).includes(k);
