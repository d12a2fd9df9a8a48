import type { PgMigration } from '../migrate.js';

/**
 * The core schema, mirroring the SQLite adapter's (see its 001-core.ts for the timeline design: events
 * split into an append-only skeleton, a content row that redaction deletes, and a tombstone). Every table
 * carries `tenant`, and every statement filters on it. Differences that PostgreSQL asks for:
 *
 * - Times are double precision: JavaScript numbers round-trip exactly, fractional milliseconds included.
 * - `tenant_state` holds per tenant the last seq (a row lock on it serialises a tenant's writers, so seqs
 *   stay unique across connections), the doc count and total length that BM25 needs, and a vector epoch
 *   that in-process vector indexes compare to notice other processes' writes.
 * - `docs.tsv` is the lexical index (GIN), built from the doc's words as the adapter tokenises them
 *   (folded, lower-cased), through the `engram_text` configuration: snowball English stems, no stop words.
 *   `docs.tf` keeps each lexeme's term frequency for BM25 (reading it from the tsvector means unnesting
 *   every matching doc's tsvector, which measured several times slower).
 * - `docs.metadata` is jsonb for filters; records keep their JSON as text, so it reads back byte for byte.
 * - With pgvector, `docs.embedding` holds the current model's vector (typed to its dimension and given an
 *   HNSW index at init, see vector-setup.ts) and `embeddings.vec` is a `vector`; without it, `bytea`.
 */
function ddl(vector: boolean): string {
  const vec = vector ? 'pgv.vector' : 'bytea';
  return `
CREATE TABLE engram.meta (
  key text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE engram.tenant_state (
  tenant text PRIMARY KEY,
  last_seq bigint NOT NULL DEFAULT 0,
  doc_count bigint NOT NULL DEFAULT 0,
  doc_len bigint NOT NULL DEFAULT 0,
  vector_epoch bigint NOT NULL DEFAULT 0
);

CREATE TABLE engram.events (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  seq bigint NOT NULL,
  ts double precision NOT NULL,
  recorded_at double precision NOT NULL,
  type text NOT NULL,
  actor text NOT NULL,
  user_id text,
  agent_id text,
  session_id text,
  task_id text,
  state_label text,
  importance double precision NOT NULL,
  source text,
  expires_at double precision
);
CREATE UNIQUE INDEX events_by_id ON engram.events (tenant, id);
CREATE UNIQUE INDEX events_by_seq ON engram.events (tenant, seq);
CREATE INDEX events_by_ts ON engram.events (tenant, ts);
CREATE INDEX events_by_user ON engram.events (tenant, user_id, seq);
CREATE INDEX events_by_session ON engram.events (tenant, session_id, seq);
CREATE INDEX events_by_source ON engram.events (tenant, source) WHERE source IS NOT NULL;
CREATE INDEX events_expiring ON engram.events (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE engram.event_contents (
  event_pk bigint PRIMARY KEY REFERENCES engram.events (pk) ON DELETE CASCADE,
  tenant text NOT NULL,
  name text,
  content text NOT NULL,
  tool text,
  args text,
  result text,
  tags text NOT NULL,
  metadata text NOT NULL,
  content_hash text NOT NULL,
  pii text NOT NULL
);
CREATE INDEX event_contents_by_hash ON engram.event_contents (tenant, content_hash);

CREATE TABLE engram.event_redactions (
  event_pk bigint PRIMARY KEY REFERENCES engram.events (pk) ON DELETE CASCADE,
  tenant text NOT NULL,
  redacted_at double precision NOT NULL,
  reason text NOT NULL
);

CREATE FUNCTION engram.refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are never updated (%)', TG_TABLE_NAME, TG_ARGV[0] USING ERRCODE = 'P0001';
END $$;
CREATE TRIGGER events_append_only BEFORE UPDATE ON engram.events
  FOR EACH ROW EXECUTE FUNCTION engram.refuse_update('events are append-only');
CREATE TRIGGER event_contents_append_only BEFORE UPDATE ON engram.event_contents
  FOR EACH ROW EXECUTE FUNCTION engram.refuse_update('redact instead');

CREATE TABLE engram.facts (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  key text NOT NULL,
  version integer NOT NULL,
  supersedes text,
  kind text NOT NULL,
  text text NOT NULL,
  subject text,
  predicate text,
  value text,
  source text,
  section text,
  user_id text,
  agent_id text,
  session_id text,
  task_id text,
  tags text NOT NULL,
  pii boolean NOT NULL,
  pii_report text NOT NULL,
  metadata text NOT NULL,
  confidence double precision NOT NULL,
  support_count double precision NOT NULL,
  contradict_count double precision NOT NULL,
  importance double precision NOT NULL,
  valid_from double precision,
  valid_to double precision,
  recorded_at double precision NOT NULL,
  expired_at double precision,
  expires_at double precision,
  content_hash text NOT NULL,
  provenance text NOT NULL
);
CREATE UNIQUE INDEX facts_by_id ON engram.facts (tenant, id);
CREATE UNIQUE INDEX facts_by_version ON engram.facts (tenant, key, version);
CREATE UNIQUE INDEX facts_one_live_per_key ON engram.facts (tenant, key) WHERE expired_at IS NULL;
CREATE INDEX facts_by_hash ON engram.facts (tenant, content_hash);
CREATE INDEX facts_by_user ON engram.facts (tenant, user_id);
CREATE INDEX facts_by_recorded ON engram.facts (tenant, recorded_at);
CREATE INDEX facts_expiring ON engram.facts (expires_at) WHERE expires_at IS NOT NULL;

CREATE FUNCTION engram.fact_versions_stay() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.tenant, NEW.id, NEW.key, NEW.version, NEW.supersedes, NEW.kind, NEW.text, NEW.subject, NEW.predicate,
      NEW.value, NEW.source, NEW.section, NEW.user_id, NEW.agent_id, NEW.session_id, NEW.task_id, NEW.tags, NEW.pii,
      NEW.pii_report, NEW.metadata, NEW.importance, NEW.valid_from, NEW.recorded_at, NEW.expires_at, NEW.content_hash,
      NEW.provenance)
     IS DISTINCT FROM
     (OLD.tenant, OLD.id, OLD.key, OLD.version, OLD.supersedes, OLD.kind, OLD.text, OLD.subject, OLD.predicate,
      OLD.value, OLD.source, OLD.section, OLD.user_id, OLD.agent_id, OLD.session_id, OLD.task_id, OLD.tags, OLD.pii,
      OLD.pii_report, OLD.metadata, OLD.importance, OLD.valid_from, OLD.recorded_at, OLD.expires_at, OLD.content_hash,
      OLD.provenance) THEN
    RAISE EXCEPTION 'a fact version is never overwritten; insert a new version' USING ERRCODE = 'P0001';
  END IF;
  IF OLD.expired_at IS NOT NULL AND NEW.expired_at IS DISTINCT FROM OLD.expired_at THEN
    RAISE EXCEPTION 'a superseded fact version stays closed' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER facts_never_overwritten BEFORE UPDATE ON engram.facts
  FOR EACH ROW EXECUTE FUNCTION engram.fact_versions_stay();

CREATE TEXT SEARCH DICTIONARY engram.engram_stem (TEMPLATE = pg_catalog.snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION engram.engram_text (COPY = pg_catalog.simple);
ALTER TEXT SEARCH CONFIGURATION engram.engram_text ALTER MAPPING FOR asciiword, word, numword, asciihword, hword,
  numhword, hword_asciipart, hword_part, hword_numpart WITH engram.engram_stem;

CREATE TABLE engram.docs (
  doc_id bigserial PRIMARY KEY,
  tenant text NOT NULL,
  kind text NOT NULL,
  ref_id text NOT NULL,
  user_id text,
  agent_id text,
  session_id text,
  task_id text,
  text text NOT NULL,
  ts double precision NOT NULL,
  importance double precision NOT NULL,
  type text,
  actor text,
  source text,
  section text,
  state_label text,
  tags text[] NOT NULL,
  pii boolean NOT NULL,
  metadata jsonb NOT NULL,
  content_hash text NOT NULL,
  expires_at double precision,
  confidence double precision NOT NULL,
  tsv tsvector NOT NULL,
  tf jsonb NOT NULL,
  doc_len integer NOT NULL${vector ? ',\n  embedding pgv.vector' : ''}
);
CREATE UNIQUE INDEX docs_by_ref ON engram.docs (tenant, kind, ref_id);
CREATE INDEX docs_by_user ON engram.docs (tenant, user_id);
CREATE INDEX docs_by_agent ON engram.docs (tenant, agent_id);
CREATE INDEX docs_by_session ON engram.docs (tenant, session_id);
CREATE INDEX docs_by_task ON engram.docs (tenant, task_id);
CREATE INDEX docs_by_hash ON engram.docs (content_hash);
CREATE INDEX docs_expiring ON engram.docs (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX docs_tsv ON engram.docs USING gin (tsv);
CREATE INDEX docs_tags ON engram.docs USING gin (tags);

CREATE TABLE engram.embeddings (
  model text NOT NULL,
  content_hash text NOT NULL,
  dimension integer NOT NULL,
  vec ${vec} NOT NULL,
  PRIMARY KEY (model, content_hash)
);
CREATE INDEX embeddings_by_hash ON engram.embeddings (content_hash);

CREATE TABLE engram.retrievals (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  query text NOT NULL,
  created_at double precision NOT NULL,
  item_ids text[] NOT NULL,
  config text NOT NULL
);
CREATE UNIQUE INDEX retrievals_by_id ON engram.retrievals (tenant, id);

CREATE TABLE engram.audit_log (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  at double precision NOT NULL,
  action text NOT NULL,
  target_ids text NOT NULL,
  details text NOT NULL
);
CREATE INDEX audit_log_by_time ON engram.audit_log (tenant, at);
CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON engram.audit_log
  FOR EACH ROW EXECUTE FUNCTION engram.refuse_update('audit records are append-only');

-- JavaScript orders strings by UTF-16 code units; "C" collation by code points. They differ only for
-- U+E000..U+FFFF against astral characters: this key moves U+E000..U+FFFF above every astral character
-- (prefixing them with U+10FFFF, and U+10FFFF itself with U+10FFFF U+0001), so C order agrees with UTF-16.
CREATE FUNCTION engram.utf16_key(s text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT regexp_replace(replace(s, U&'\\+10FFFF', U&'\\+10FFFF\\0001'), '([\\uE000-\\uFFFF])', U&'\\+10FFFF' || '\\1', 'g') COLLATE "C"
$$;

INSERT INTO engram.meta (key, value) VALUES ('vector_mode', '${vector ? 'pgvector' : 'bytea'}');
`;
}

export const coreSchema: PgMigration = {
  version: 1,
  name: 'core: timeline, facts, docs + tsvector, embeddings, retrievals, audit',
  up: (env) => [ddl(env.vector)],
};
