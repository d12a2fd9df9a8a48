import type { PgMigration } from '../migrate.js';

/**
 * What the learn path keeps, as in the SQLite adapter's 002-learn.ts (see there for each table's purpose).
 * Numbers are double precision or integer so both drivers return JavaScript numbers and the SQLite
 * adapter's row mappings (`rows-learn.ts`) serve as they are; list columns hold JSON text.
 * `examples` are unique per (tenant, exact scope, content hash): NULL scope fields are spelled '' plus an
 * IS NULL flag in the index, so absent compares equal to absent (and never to an empty string).
 */
const DDL = `
CREATE TABLE engram.episodes (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  stream_key text NOT NULL,
  user_id text,
  agent_id text,
  session_id text,
  task_id text,
  start_seq double precision NOT NULL,
  end_seq double precision NOT NULL,
  start_ts double precision NOT NULL,
  end_ts double precision NOT NULL,
  event_ids text NOT NULL,
  state_label text,
  summary text NOT NULL,
  outcome text NOT NULL,
  outcome_details text,
  decisions text NOT NULL,
  assumptions text NOT NULL,
  corrections text NOT NULL,
  root_cause text,
  importance double precision NOT NULL,
  closed integer NOT NULL,
  metadata text NOT NULL,
  recorded_at double precision NOT NULL
);
CREATE UNIQUE INDEX episodes_by_id ON engram.episodes (tenant, id);
CREATE INDEX episodes_by_stream ON engram.episodes (tenant, stream_key, end_ts);
CREATE INDEX episodes_by_end ON engram.episodes (tenant, end_ts);
CREATE INDEX episodes_by_user ON engram.episodes (tenant, user_id);

CREATE TABLE engram.links (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  type text NOT NULL,
  from_id text NOT NULL,
  to_id text NOT NULL,
  weight double precision NOT NULL,
  origin text NOT NULL,
  evidence text,
  created_at double precision NOT NULL
);
CREATE UNIQUE INDEX links_by_id ON engram.links (tenant, id);
CREATE UNIQUE INDEX links_by_edge ON engram.links (tenant, type, from_id, to_id);
CREATE INDEX links_by_from ON engram.links (tenant, from_id, type, to_id);
CREATE INDEX links_by_to ON engram.links (tenant, to_id, type, from_id);

CREATE TABLE engram.fact_evidence (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  fact_id text NOT NULL,
  episode_id text NOT NULL,
  polarity text NOT NULL,
  weight double precision NOT NULL,
  at double precision NOT NULL
);
CREATE UNIQUE INDEX fact_evidence_by_pair ON engram.fact_evidence (tenant, fact_id, episode_id);
CREATE INDEX fact_evidence_by_episode ON engram.fact_evidence (tenant, episode_id);

CREATE TABLE engram.procedures (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  user_id text,
  agent_id text,
  session_id text,
  task_id text,
  name text NOT NULL,
  trigger_text text NOT NULL,
  steps text NOT NULL,
  preconditions text NOT NULL,
  success_count double precision NOT NULL,
  failure_count double precision NOT NULL,
  notes text NOT NULL,
  last_used_at double precision,
  source_episode_ids text NOT NULL,
  created_at double precision NOT NULL,
  updated_at double precision NOT NULL
);
CREATE UNIQUE INDEX procedures_by_id ON engram.procedures (tenant, id);
CREATE INDEX procedures_by_created ON engram.procedures (tenant, created_at);

CREATE TABLE engram.examples (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  user_id text,
  agent_id text,
  session_id text,
  task_id text,
  polarity text NOT NULL,
  query text NOT NULL,
  response text NOT NULL,
  reason text,
  origin text NOT NULL,
  content_hash text NOT NULL,
  created_at double precision NOT NULL
);
CREATE UNIQUE INDEX examples_by_id ON engram.examples (tenant, id);
CREATE UNIQUE INDEX examples_by_pair ON engram.examples (
  tenant, content_hash,
  COALESCE(user_id, ''), (user_id IS NULL), COALESCE(agent_id, ''), (agent_id IS NULL),
  COALESCE(session_id, ''), (session_id IS NULL), COALESCE(task_id, ''), (task_id IS NULL)
);
CREATE INDEX examples_by_created ON engram.examples (tenant, created_at);

CREATE TABLE engram.working_memory (
  tenant text NOT NULL,
  session_id text NOT NULL,
  version integer NOT NULL,
  state text NOT NULL,
  updated_at double precision NOT NULL,
  expires_at double precision,
  PRIMARY KEY (tenant, session_id)
);
CREATE INDEX working_memory_expiring ON engram.working_memory (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE engram.api_keys (
  pk bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  tenant text,
  role text NOT NULL,
  name text NOT NULL,
  prefix text NOT NULL,
  hash text NOT NULL UNIQUE,
  created_at double precision NOT NULL,
  revoked_at double precision
);
CREATE INDEX api_keys_by_tenant ON engram.api_keys (tenant, created_at);
`;

export const learnSchema: PgMigration = {
  version: 2,
  name: 'learn: episodes, links, fact evidence, procedures, examples, working memory, api keys',
  up: () => [DDL],
};
