/**
 * Backup and restore, once for every engine: each record kind is one registry entry (how to list a page of a
 * tenant's rows in a stable order, how to validate records, how to insert them as they were). Listing reads
 * everything stored (expired, superseded and redacted records too); restoring keeps ids, versions, timestamps
 * and counters and projects docs as the write path does. Events are listed here; inserting them with their seq
 * and lexical context is the engine's (see `restoreEvents` of each engine's event store).
 */
import { factToDoc } from '../../../../core/docs.js';
import { EngramError } from '../../../../core/errors.js';
import type { AuditRecord, BackupEvent, BackupKind, BackupPage, BackupRecordKinds, RestoreReport } from '../../../../ports/storage.js';
import type { BigIntish } from '../codec.js';
import type { Dialect } from '../dialect.js';
import { sql } from '../fragment.js';
import { exec, insertDocs, lockTenants, one, rows, type Step } from '../program.js';
import { FACT_COLUMNS, factParams, insertSql, rowToEvent, rowToFact, toNull, type EventRow, type FactRow } from '../rows.js';
import {
  LINK_COLUMNS,
  linkParams,
  rowToEpisode,
  rowToEvidence,
  rowToExample,
  rowToLink,
  rowToProcedure,
  rowToWorkingMemory,
  type EpisodeRow,
  type EvidenceRow,
  type ExampleRow,
  type LinkRow,
  type ProcedureRow,
  type WorkingMemoryRow,
} from '../rows-learn.js';
import { assertEvidence, assertEpisode, assertExample, assertLinks, assertProcedure, assertWorkingMemory } from '../validate-learn.js';
import { assertEventBatch, assertFact } from '../validate-input.js';
import { addFactEvidence } from './evidence.js';
import { closeVersion } from './facts.js';
import {
  assertEntities,
  assertRelations,
  ENTITY_COLUMNS,
  entityParams,
  RELATION_COLUMNS,
  relationParams,
  rowToEntity,
  rowToRelation,
  writeNames,
  writeSources,
  type EntityRow,
  type RelationRow,
} from './graph.js';
import { putEpisode, putExample, putProcedure } from './learned.js';
import { insertAudit, putRetrieval, rowToAudit, rowToRetrieval, type AuditRow, type RetrievalRow } from './logs.js';

/** A record kind stored by the shared layer: list a page, check a batch, insert one record (or find it there). */
interface BackupEntry<K extends BackupKind> {
  list(d: Dialect, tenant: string, after: string | undefined, limit: number): Step<BackupPage<K>>;
  validate(records: readonly BackupRecordKinds[K][]): void;
  /** Inserts the record unless its identity is stored: then 'existing' (same content) or 'kept' (the stored one differs and stays). */
  restore(d: Dialect, record: BackupRecordKinds[K]): Step<'written' | 'existing' | 'kept'>;
}

type SharedKind = Exclude<BackupKind, 'event'>;

/** Records compared by content: keys sorted, absent and undefined alike. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).filter(([, y]) => y !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

const same = (a: unknown, b: unknown): 'existing' | 'kept' => (canonical(a) === canonical(b) ? 'existing' : 'kept');

/** A page of `table` by insertion order (pk), after the cursor. */
function* pageByPk<R extends { pk: BigIntish }, T>(table: string, tenant: string, after: string | undefined, limit: number, map: (r: R) => T): Step<{ records: T[]; next?: string }> {
  const found = yield* rows<R>(sql(`SELECT * FROM engram.${table} WHERE tenant = ? AND pk > ? ORDER BY pk LIMIT ?`, tenant, cursorNumber(after), limit));
  return { records: found.map(map), ...(found.length === limit ? { next: String(found[found.length - 1]!.pk) } : {}) };
}

function cursorNumber(after: string | undefined): number {
  if (after === undefined) return 0;
  const n = Number(after);
  if (!Number.isSafeInteger(n) || n < 0) throw new EngramError('VALIDATION', `bad backup cursor ${after}`, { issues: [{ path: 'after', message: 'expected a cursor from the previous page' }] });
  return n;
}

/** The stored row of `table` with this id in the tenant, if any. */
const byId = <R>(table: string, tenant: string, id: string): Step<R | undefined> => one<R>(sql(`SELECT * FROM engram.${table} WHERE tenant = ? AND id = ?`, tenant, id));

const EVENT_PAGE = `SELECT e.*, c.name, c.content, c.tool, c.args, c.result, c.tags, c.metadata, c.content_hash, c.pii, r.redacted_at, r.reason
  FROM engram.events e LEFT JOIN engram.event_contents c ON c.event_pk = e.pk LEFT JOIN engram.event_redactions r ON r.event_pk = e.pk
  WHERE e.tenant = ? AND e.seq > ? ORDER BY e.seq LIMIT ?`;

/** A page of the tenant's events by seq (the cursor is the last seq), expired and redacted ones included. */
export function* listEventPage(tenant: string, after: string | undefined, limit: number): Step<BackupPage<'event'>> {
  const found = yield* rows<EventRow>(sql(EVENT_PAGE, tenant, cursorNumber(after), limit));
  const records = found.map((r): BackupEvent => {
    const e = rowToEvent(r);
    if (r.content !== null) return e;
    const { metadata: _tombstone, ...rest } = e;
    return { ...rest, metadata: {}, redaction: { at: r.redacted_at ?? 0, reason: r.reason ?? '' } };
  });
  return { records, ...(found.length === limit ? { next: String(records[records.length - 1]!.seq) } : {}) };
}

/**
 * A batch of backup events: each a valid event (a tombstone's empty content hash aside) with a positive integer
 * seq and, when redacted, a redaction time and reason; ids and seqs unique in the batch. Returned in seq order,
 * the order their lexical contexts are derived in.
 */
export function validateBackupEvents(events: readonly BackupEvent[]): BackupEvent[] {
  assertEventBatch(events.map((e) => (e.redaction && !e.contentHash ? { ...e, contentHash: '-' } : e)));
  const seqs = new Set<string>();
  events.forEach((e, i) => {
    const path = `events.${i}`;
    const fail = (field: string, message: string): never => {
      throw new EngramError('VALIDATION', `invalid events: ${path}.${field}: ${message}`, { issues: [{ path: `${path}.${field}`, message }] });
    };
    if (!Number.isSafeInteger(e.seq) || e.seq < 1) fail('seq', 'expected a positive integer');
    if (e.redaction !== undefined && (!Number.isFinite(e.redaction.at) || typeof e.redaction.reason !== 'string')) fail('redaction', 'expected { at, reason }');
    const key = `${e.tenant}\u0000${e.seq}`;
    if (seqs.has(key)) fail('seq', 'repeats another event of the batch');
    seqs.add(key);
  });
  return [...events].sort((a, b) => a.seq - b.seq);
}

/** How a backup event compares with what the tenant stores under its id. */
export function storedEventState(stored: { seq: BigIntish; content_hash: string | null } | undefined, e: BackupEvent): 'existing' | 'kept' | undefined {
  if (!stored) return undefined;
  const hash = e.redaction ? null : e.contentHash;
  return Number(stored.seq) === e.seq && stored.content_hash === hash ? 'existing' : 'kept';
}

const INSERT_FACT = insertSql('facts', FACT_COLUMNS);
const INSERT_LINK = insertSql('links', LINK_COLUMNS);
const INSERT_ENTITY = insertSql('entities', ENTITY_COLUMNS);
const INSERT_RELATION = insertSql('relations', RELATION_COLUMNS);

const each =
  <T>(check: (r: T) => void) =>
  (records: readonly T[]): void => {
    for (const r of records) check(r);
  };

export const BACKUP_REGISTRY: { [K in SharedKind]: BackupEntry<K> } = {
  fact: {
    list: (_d, tenant, after, limit) => pageByPk<FactRow, BackupRecordKinds['fact']>('facts', tenant, after, limit, rowToFact),
    validate: each(assertFact),
    *restore(d, f) {
      const stored = yield* byId<FactRow>('facts', f.tenant, f.id);
      if (stored) return same(rowToFact(stored), f);
      // An export is read page by page: a version revised while it ran is in it still live, before its successor.
      // The successor closes it here as the write path did.
      const previous = f.supersedes === undefined ? undefined : yield* byId<FactRow>('facts', f.tenant, f.supersedes);
      if (previous && previous.expired_at === null && previous.key === f.key) yield* closeVersion(d, previous, f);
      yield* exec(sql(INSERT_FACT, ...factParams(f, d)));
      // Only a live version is projected (a superseded one left the projection when it was closed).
      if (f.expiredAt === undefined) yield* insertDocs([factToDoc(f)]);
      return 'written';
    },
  },
  fact_evidence: {
    list: (_d, tenant, after, limit) => pageByPk<EvidenceRow & { pk: BigIntish }, BackupRecordKinds['fact_evidence']>('fact_evidence', tenant, after, limit, rowToEvidence),
    validate: assertEvidence,
    *restore(_d, r) {
      const stored = yield* one<EvidenceRow>(sql('SELECT * FROM engram.fact_evidence WHERE tenant = ? AND fact_id = ? AND episode_id = ?', r.tenant, r.factId, r.episodeId));
      if (stored) return same(rowToEvidence(stored), r);
      yield* addFactEvidence([r]);
      return 'written';
    },
  },
  episode: {
    list: (_d, tenant, after, limit) => pageByPk<EpisodeRow, BackupRecordKinds['episode']>('episodes', tenant, after, limit, rowToEpisode),
    validate: each(assertEpisode),
    *restore(d, e) {
      const stored = yield* byId<EpisodeRow>('episodes', e.tenant, e.id);
      if (stored) return same(rowToEpisode(stored), e);
      yield* putEpisode(d, e);
      return 'written';
    },
  },
  link: {
    list: (_d, tenant, after, limit) => pageByPk<LinkRow, BackupRecordKinds['link']>('links', tenant, after, limit, rowToLink),
    validate: assertLinks,
    *restore(_d, l) {
      const stored =
        (yield* byId<LinkRow>('links', l.tenant, l.id)) ??
        (yield* one<LinkRow>(sql('SELECT * FROM engram.links WHERE tenant = ? AND type = ? AND from_id = ? AND to_id = ?', l.tenant, l.type, l.fromId, l.toId)));
      if (stored) return same(rowToLink(stored), l);
      yield* exec(sql(INSERT_LINK, ...linkParams(l)));
      return 'written';
    },
  },
  procedure: {
    list: (_d, tenant, after, limit) => pageByPk<ProcedureRow, BackupRecordKinds['procedure']>('procedures', tenant, after, limit, rowToProcedure),
    validate: each(assertProcedure),
    *restore(_d, p) {
      const stored = yield* byId<ProcedureRow>('procedures', p.tenant, p.id);
      if (stored) return same(rowToProcedure(stored), p);
      yield* putProcedure(p);
      return 'written';
    },
  },
  example: {
    list: (_d, tenant, after, limit) => pageByPk<ExampleRow, BackupRecordKinds['example']>('examples', tenant, after, limit, rowToExample),
    validate: each(assertExample),
    *restore(_d, x) {
      const stored = yield* byId<ExampleRow>('examples', x.tenant, x.id);
      if (stored) return same(rowToExample(stored), x);
      yield* putExample(x);
      return 'written';
    },
  },
  entity: {
    list: (_d, tenant, after, limit) => pageByPk<EntityRow & { pk: BigIntish }, BackupRecordKinds['entity']>('entities', tenant, after, limit, rowToEntity),
    validate: assertEntities,
    *restore(_d, e) {
      const stored = yield* byId<EntityRow>('entities', e.tenant, e.id);
      if (stored) return same(rowToEntity(stored), e);
      // As it was: no merge by name (the export holds each entity once), its names and citations indexed again.
      yield* exec(sql(INSERT_ENTITY, ...entityParams(e)));
      yield* writeNames(e);
      yield* writeSources(e.tenant, e.id, e.provenance);
      return 'written';
    },
  },
  relation: {
    list: (_d, tenant, after, limit) => pageByPk<RelationRow & { pk: BigIntish }, BackupRecordKinds['relation']>('relations', tenant, after, limit, rowToRelation),
    validate: (records) => assertRelations(records.map((relation) => ({ relation }))),
    *restore(_d, r) {
      const stored = yield* byId<RelationRow>('relations', r.tenant, r.id);
      if (stored) return same(rowToRelation(stored), r);
      // Every version as listed (a closed edge keeps its expiredAt and validTo; nothing is closed or merged again).
      yield* exec(sql(INSERT_RELATION, ...relationParams(r)));
      yield* writeSources(r.tenant, r.id, r.provenance);
      return 'written';
    },
  },
  retrieval: {
    list: (_d, tenant, after, limit) => pageByPk<RetrievalRow & { pk: BigIntish }, BackupRecordKinds['retrieval']>('retrievals', tenant, after, limit, rowToRetrieval),
    validate: each((r) => {
      if (typeof r.id !== 'string' || typeof r.query !== 'string' || !Array.isArray(r.itemIds) || !Number.isFinite(r.createdAt)) {
        throw new EngramError('VALIDATION', 'invalid retrieval', { issues: [{ path: 'retrieval', message: 'id, query, createdAt and itemIds are required' }] });
      }
    }),
    *restore(d, r) {
      const stored = yield* byId<RetrievalRow>('retrievals', r.tenant, r.id);
      if (stored) return same(rowToRetrieval(stored), r);
      yield* putRetrieval(d, r);
      return 'written';
    },
  },
  working_memory: {
    *list(d, tenant, after, limit) {
      const found = yield* rows<WorkingMemoryRow>(
        sql(`SELECT * FROM engram.working_memory WHERE tenant = ? AND session_id${d.byteOrder} > ? ORDER BY session_id${d.byteOrder} LIMIT ?`, tenant, after ?? '', limit),
      );
      return { records: found.map(rowToWorkingMemory), ...(found.length === limit ? { next: found[found.length - 1]!.session_id } : {}) };
    },
    validate: each((w) => assertWorkingMemory(w, w.version)),
    *restore(_d, w) {
      const stored = yield* one<WorkingMemoryRow>(sql('SELECT * FROM engram.working_memory WHERE tenant = ? AND session_id = ?', w.tenant, w.sessionId));
      if (stored) return same(rowToWorkingMemory(stored), w);
      yield* exec(
        sql(
          'INSERT INTO engram.working_memory (tenant, session_id, version, state, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
          w.tenant, w.sessionId, w.version, JSON.stringify(w.state), w.updatedAt, toNull(w.expiresAt),
        ),
      );
      return 'written';
    },
  },
  audit: {
    list: (_d, tenant, after, limit) => pageByPk<AuditRow & { pk: BigIntish }, AuditRecord>('audit_log', tenant, after, limit, rowToAudit),
    validate: each((a) => {
      if (typeof a.id !== 'string' || !Number.isFinite(a.at) || !Array.isArray(a.targetIds)) {
        throw new EngramError('VALIDATION', 'invalid audit record', { issues: [{ path: 'audit', message: 'id, at and targetIds are required' }] });
      }
    }),
    *restore(_d, a) {
      const stored = yield* byId<AuditRow>('audit_log', a.tenant, a.id);
      if (stored) return same(rowToAudit(stored), a);
      yield* insertAudit(a);
      return 'written';
    },
  },
};

export function* listBackupPage<K extends SharedKind>(d: Dialect, kind: K, tenant: string, after: string | undefined, limit: number): Step<BackupPage<K>> {
  return yield* (BACKUP_REGISTRY[kind] as BackupEntry<K>).list(d, tenant, after, limit);
}

/** In the caller's one write transaction: every record, in order, or nothing. */
export function* restoreRecords<K extends SharedKind>(d: Dialect, kind: K, records: readonly BackupRecordKinds[K][]): Step<RestoreReport> {
  const entry = BACKUP_REGISTRY[kind] as BackupEntry<K>;
  const report: RestoreReport = { written: 0, existing: 0, kept: 0 };
  yield* lockTenants([...new Set(records.map((r) => r.tenant))]);
  for (const r of records) report[yield* entry.restore(d, r)]++;
  return report;
}

export function validateBackupRecords<K extends SharedKind>(kind: K, records: readonly BackupRecordKinds[K][]): void {
  (BACKUP_REGISTRY[kind] as BackupEntry<K>).validate(records);
}
