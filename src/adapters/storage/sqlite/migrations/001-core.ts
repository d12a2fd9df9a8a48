import type { Db } from '../connection.js';
import type { Migration } from '../migrate.js';

/**
 * The core schema. Every table carries `tenant`, and every statement the adapter runs filters on it.
 *
 * Timeline design: an event is split in two rows.
 * - `events` is the timeline skeleton (id, seq, time, type, actor, scope, source, TTL). It is append-only:
 *   a trigger rejects every UPDATE. Rows leave only by `forget`/`sweepExpired` (physical deletion).
 * - `event_contents` holds everything an event says (text, name, tool args/result, tags, metadata, hash,
 *   PII report). Also never updated. Redaction DELETEs this row (and the event's doc), then records a
 *   tombstone in `event_redactions` plus an audit entry, so the timeline keeps its shape (seq, time, type)
 *   while the content is gone from the file (secure_delete zeroes the freed cells).
 * Per-tenant `seq` comes from `tenant_sequences`, bumped inside the appending transaction, so seqs are
 * dense-ish, monotonic per tenant, never reused after deletion, and reveal nothing about other tenants.
 *
 * Facts keep one row per version; only the closing columns and evidence counters may change (trigger).
 * A partial unique index guarantees at most one live (unsuperseded) version per key.
 *
 * `docs` is the retrieval projection (`src/core/docs.ts`), one row per searchable live record, written in
 * the same transaction as the record. `docs_fts` is an external-content FTS5 index over `docs.text` kept in
 * step by triggers. `doc_id` is AUTOINCREMENT so an id is never reused: in-memory vector indexes of other
 * processes key on it. Doc text is immutable (trigger), so the FTS index never needs an update path.
 *
 * `embeddings` is a cache keyed by (model, content_hash), shared by every doc with that hash. It is not
 * partitioned by tenant: the hash is of the text, and a vector is dropped once no doc references its hash.
 */
const SCHEMA = `
CREATE TABLE tenant_sequences (
  tenant TEXT PRIMARY KEY,
  last_seq INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE events (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL,
  type TEXT NOT NULL,
  actor TEXT NOT NULL,
  user_id TEXT,
  agent_id TEXT,
  session_id TEXT,
  task_id TEXT,
  state_label TEXT,
  importance REAL NOT NULL,
  source TEXT,
  expires_at INTEGER
);
CREATE UNIQUE INDEX events_by_id ON events (tenant, id);
CREATE UNIQUE INDEX events_by_seq ON events (tenant, seq);
CREATE INDEX events_by_ts ON events (tenant, ts);
CREATE INDEX events_by_session ON events (tenant, session_id, seq);
CREATE INDEX events_expiring ON events (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE event_contents (
  event_pk INTEGER PRIMARY KEY REFERENCES events (pk) ON DELETE CASCADE,
  tenant TEXT NOT NULL,
  name TEXT,
  content TEXT NOT NULL,
  tool TEXT,
  args TEXT,
  result TEXT,
  tags TEXT NOT NULL,
  metadata TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  pii TEXT NOT NULL
);
CREATE INDEX event_contents_by_hash ON event_contents (tenant, content_hash);

CREATE TABLE event_redactions (
  event_pk INTEGER PRIMARY KEY REFERENCES events (pk) ON DELETE CASCADE,
  tenant TEXT NOT NULL,
  redacted_at INTEGER NOT NULL,
  reason TEXT NOT NULL
);

CREATE TRIGGER events_append_only BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER event_contents_append_only BEFORE UPDATE ON event_contents
BEGIN SELECT RAISE(ABORT, 'event contents are never updated; redact instead'); END;

CREATE TABLE facts (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  key TEXT NOT NULL,
  version INTEGER NOT NULL,
  supersedes TEXT,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  subject TEXT,
  predicate TEXT,
  value TEXT,
  source TEXT,
  section TEXT,
  user_id TEXT,
  agent_id TEXT,
  session_id TEXT,
  task_id TEXT,
  tags TEXT NOT NULL,
  pii INTEGER NOT NULL,
  pii_report TEXT NOT NULL,
  metadata TEXT NOT NULL,
  confidence REAL NOT NULL,
  support_count INTEGER NOT NULL,
  contradict_count INTEGER NOT NULL,
  importance REAL NOT NULL,
  valid_from INTEGER,
  valid_to INTEGER,
  recorded_at INTEGER NOT NULL,
  expired_at INTEGER,
  expires_at INTEGER,
  content_hash TEXT NOT NULL,
  provenance TEXT NOT NULL
);
CREATE UNIQUE INDEX facts_by_id ON facts (tenant, id);
CREATE UNIQUE INDEX facts_by_version ON facts (tenant, key, version);
CREATE UNIQUE INDEX facts_one_live_per_key ON facts (tenant, key) WHERE expired_at IS NULL;
CREATE INDEX facts_by_hash ON facts (tenant, content_hash);
CREATE INDEX facts_expiring ON facts (expires_at) WHERE expires_at IS NOT NULL;

CREATE TRIGGER facts_never_overwritten
BEFORE UPDATE OF tenant, id, key, version, supersedes, kind, text, subject, predicate, value, source, section,
  user_id, agent_id, session_id, task_id, tags, pii, pii_report, metadata, importance, valid_from, recorded_at,
  expires_at, content_hash, provenance ON facts
BEGIN SELECT RAISE(ABORT, 'a fact version is never overwritten; insert a new version'); END;
CREATE TRIGGER facts_stay_closed BEFORE UPDATE OF expired_at ON facts WHEN old.expired_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a superseded fact version stays closed'); END;

CREATE TABLE docs (
  doc_id INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant TEXT NOT NULL,
  kind TEXT NOT NULL,
  ref_id TEXT NOT NULL,
  user_id TEXT,
  agent_id TEXT,
  session_id TEXT,
  task_id TEXT,
  text TEXT NOT NULL,
  ts INTEGER NOT NULL,
  importance REAL NOT NULL,
  type TEXT,
  actor TEXT,
  source TEXT,
  section TEXT,
  state_label TEXT,
  tags TEXT NOT NULL,
  pii INTEGER NOT NULL,
  metadata TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  expires_at INTEGER,
  confidence REAL NOT NULL
);
CREATE UNIQUE INDEX docs_by_ref ON docs (tenant, kind, ref_id);
CREATE INDEX docs_by_hash ON docs (content_hash);
CREATE INDEX docs_expiring ON docs (expires_at) WHERE expires_at IS NOT NULL;

CREATE TRIGGER docs_text_immutable
BEFORE UPDATE OF doc_id, tenant, kind, ref_id, text, content_hash ON docs
BEGIN SELECT RAISE(ABORT, 'doc text and identity never change; delete and insert instead'); END;

CREATE VIRTUAL TABLE docs_fts USING fts5 (
  text,
  content = 'docs',
  content_rowid = 'doc_id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER docs_fts_insert AFTER INSERT ON docs
BEGIN INSERT INTO docs_fts (rowid, text) VALUES (new.doc_id, new.text); END;
CREATE TRIGGER docs_fts_delete AFTER DELETE ON docs
BEGIN INSERT INTO docs_fts (docs_fts, rowid, text) VALUES ('delete', old.doc_id, old.text); END;

CREATE TABLE embeddings (
  model TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (model, content_hash)
);
CREATE INDEX embeddings_by_hash ON embeddings (content_hash);

CREATE TABLE retrievals (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  query TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  item_ids TEXT NOT NULL,
  config TEXT NOT NULL
);
CREATE UNIQUE INDEX retrievals_by_id ON retrievals (tenant, id);

CREATE TABLE audit_log (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  at INTEGER NOT NULL,
  action TEXT NOT NULL,
  target_ids TEXT NOT NULL,
  details TEXT NOT NULL
);
CREATE INDEX audit_log_by_time ON audit_log (tenant, at);
CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit records are append-only'); END;
`;

/** FTS5 secure-delete (SQLite >= 3.42) removes a deleted doc's tokens from the index instead of masking them. */
function enableFtsSecureDelete(db: Db): void {
  try {
    db.exec(`INSERT INTO docs_fts (docs_fts, rank) VALUES ('secure-delete', 1)`);
  } catch {
    // Older SQLite: deleted tokens are masked until the next merge; nothing else to do.
  }
}

export const coreSchema: Migration = {
  version: 1,
  name: 'core: timeline, facts, docs + fts, embeddings, retrievals, audit',
  up(db) {
    db.exec(SCHEMA);
    enableFtsSecureDelete(db);
  },
};
