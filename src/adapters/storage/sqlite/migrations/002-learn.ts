import type { Migration } from '../migrate.js';

/**
 * What the learn path keeps: episodes, links, fact evidence, procedures, feedback examples, working memory,
 * and the API keys requests are authenticated with. Every table carries `tenant` (API keys: nullable, for
 * admin keys) and every statement filters on it, as in 001.
 *
 * - `episodes` grow while open, so rows are replaced by id (upsert); the retrieval doc follows, and exists
 *   only while the episode is closed (`src/core/docs-learn.ts`). List columns hold JSON arrays.
 * - `links` are unique per (tenant, type, from_id, to_id): re-asserting one reinforces it instead of adding
 *   a parallel edge. Two indexes serve the two traversal directions; each also holds type and the far end,
 *   so a step of a walk reads only the index.
 * - `fact_evidence` keeps one judgement per (fact version, episode): re-judging replaces it, so replaying an
 *   episode through the learn path does not count its evidence twice.
 * - `examples` are unique per (tenant, exact scope, content hash): `findExample` must name one example. The
 *   index spells absent scope fields as X'00' (a blob, which no text value equals) so NULLs compare equal.
 * - `working_memory` holds one JSON scratchpad per (tenant, session) with an optimistic version.
 * - `api_keys` store only a hash of the secret (unique: a request finds its key, and so its tenant, by it).
 */
const SCHEMA = `
CREATE TABLE episodes (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  stream_key TEXT NOT NULL,
  user_id TEXT,
  agent_id TEXT,
  session_id TEXT,
  task_id TEXT,
  start_seq INTEGER NOT NULL,
  end_seq INTEGER NOT NULL,
  start_ts INTEGER NOT NULL,
  end_ts INTEGER NOT NULL,
  event_ids TEXT NOT NULL,
  state_label TEXT,
  summary TEXT NOT NULL,
  outcome TEXT NOT NULL,
  outcome_details TEXT,
  decisions TEXT NOT NULL,
  assumptions TEXT NOT NULL,
  corrections TEXT NOT NULL,
  root_cause TEXT,
  importance REAL NOT NULL,
  closed INTEGER NOT NULL,
  metadata TEXT NOT NULL,
  recorded_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX episodes_by_id ON episodes (tenant, id);
CREATE INDEX episodes_by_stream ON episodes (tenant, stream_key, end_ts);
CREATE INDEX episodes_by_end ON episodes (tenant, end_ts);

CREATE TABLE links (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  from_id TEXT NOT NULL,
  to_id TEXT NOT NULL,
  weight REAL NOT NULL,
  origin TEXT NOT NULL,
  evidence TEXT,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX links_by_id ON links (tenant, id);
CREATE UNIQUE INDEX links_by_edge ON links (tenant, type, from_id, to_id);
CREATE INDEX links_by_from ON links (tenant, from_id, type, to_id);
CREATE INDEX links_by_to ON links (tenant, to_id, type, from_id);

CREATE TABLE fact_evidence (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  fact_id TEXT NOT NULL,
  episode_id TEXT NOT NULL,
  polarity TEXT NOT NULL,
  weight REAL NOT NULL,
  at INTEGER NOT NULL
);
CREATE UNIQUE INDEX fact_evidence_by_pair ON fact_evidence (tenant, fact_id, episode_id);
CREATE INDEX fact_evidence_by_episode ON fact_evidence (tenant, episode_id);

CREATE TABLE procedures (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  user_id TEXT,
  agent_id TEXT,
  session_id TEXT,
  task_id TEXT,
  name TEXT NOT NULL,
  trigger_text TEXT NOT NULL,
  steps TEXT NOT NULL,
  preconditions TEXT NOT NULL,
  success_count INTEGER NOT NULL,
  failure_count INTEGER NOT NULL,
  notes TEXT NOT NULL,
  last_used_at INTEGER,
  source_episode_ids TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX procedures_by_id ON procedures (tenant, id);

CREATE TABLE examples (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  user_id TEXT,
  agent_id TEXT,
  session_id TEXT,
  task_id TEXT,
  polarity TEXT NOT NULL,
  query TEXT NOT NULL,
  response TEXT NOT NULL,
  reason TEXT,
  origin TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX examples_by_id ON examples (tenant, id);
CREATE UNIQUE INDEX examples_by_pair ON examples (
  tenant, content_hash, IFNULL(user_id, X'00'), IFNULL(agent_id, X'00'), IFNULL(session_id, X'00'), IFNULL(task_id, X'00')
);

CREATE TABLE working_memory (
  tenant TEXT NOT NULL,
  session_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  state TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER,
  PRIMARY KEY (tenant, session_id)
) WITHOUT ROWID;
CREATE INDEX working_memory_expiring ON working_memory (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE api_keys (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant TEXT,
  role TEXT NOT NULL,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX api_keys_by_tenant ON api_keys (tenant, created_at);
`;

export const learnSchema: Migration = {
  version: 2,
  name: 'learn: episodes, links, fact evidence, procedures, examples, working memory, api keys',
  up(db) {
    db.exec(SCHEMA);
  },
};
