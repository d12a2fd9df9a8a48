import type { PgMigration } from '../migrate.js';

/**
 * The knowledge graph, as in the SQLite adapter's 005-graph.ts (see there for each table's purpose). Numbers
 * are double precision so both drivers return JavaScript numbers; list columns hold JSON text.
 */
const DDL = `
CREATE TABLE engram.entities (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  user_id text,
  agent_id text,
  session_id text,
  task_id text,
  name text NOT NULL,
  name_key text NOT NULL,
  entity_type text NOT NULL,
  aliases text NOT NULL,
  observations text NOT NULL,
  summary text,
  provenance text NOT NULL,
  created_at double precision NOT NULL,
  updated_at double precision NOT NULL
);
CREATE UNIQUE INDEX entities_by_id ON engram.entities (tenant, id);
CREATE INDEX entities_by_key ON engram.entities (tenant, name_key);

CREATE TABLE engram.entity_names (
  tenant text NOT NULL,
  key text NOT NULL,
  entity_id text NOT NULL,
  PRIMARY KEY (tenant, key, entity_id)
);
CREATE INDEX entity_names_by_entity ON engram.entity_names (tenant, entity_id);

CREATE TABLE engram.relations (
  pk bigserial PRIMARY KEY,
  tenant text NOT NULL,
  id text NOT NULL,
  user_id text,
  agent_id text,
  session_id text,
  task_id text,
  source_id text NOT NULL,
  target_id text NOT NULL,
  type text NOT NULL,
  text text,
  valid_from double precision,
  valid_to double precision,
  recorded_at double precision NOT NULL,
  expired_at double precision,
  confidence double precision NOT NULL,
  supersedes text,
  provenance text NOT NULL
);
CREATE UNIQUE INDEX relations_by_id ON engram.relations (tenant, id);
CREATE INDEX relations_by_source ON engram.relations (tenant, source_id, type);
CREATE INDEX relations_by_target ON engram.relations (tenant, target_id, type);

CREATE TABLE engram.graph_sources (
  tenant text NOT NULL,
  source_id text NOT NULL,
  record_id text NOT NULL,
  PRIMARY KEY (tenant, source_id, record_id)
);
CREATE INDEX graph_sources_by_record ON engram.graph_sources (tenant, record_id);
`;

export const graphSchema: PgMigration = {
  version: 5,
  name: 'graph: entities, entity names, relations, graph sources',
  up: () => [DDL],
};
