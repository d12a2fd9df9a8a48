import type { Migration } from '../migrate.js';

/**
 * The knowledge graph (src/core/graph.ts): entities, the names they resolve by, relations between them, and
 * the events and facts each record was read from.
 *
 * - `entities` are unique per (tenant, exact scope, name key) by the store's upsert (under the tenant's
 *   write lock); list columns hold JSON arrays.
 * - `entity_names` holds every name and alias key of an entity, so a query's names resolve through an index.
 * - `relations` are versioned: a closed edge keeps its row (`expired_at` set), so `as of` reads see it.
 * - `graph_sources` maps an entity or relation to each event or fact it cites, so forgetting an event finds
 *   what was read from it.
 */
const SCHEMA = `
CREATE TABLE entities (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  user_id TEXT,
  agent_id TEXT,
  session_id TEXT,
  task_id TEXT,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  aliases TEXT NOT NULL,
  observations TEXT NOT NULL,
  summary TEXT,
  provenance TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX entities_by_id ON entities (tenant, id);
CREATE INDEX entities_by_key ON entities (tenant, name_key);

CREATE TABLE entity_names (
  tenant TEXT NOT NULL,
  key TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  PRIMARY KEY (tenant, key, entity_id)
);
CREATE INDEX entity_names_by_entity ON entity_names (tenant, entity_id);

CREATE TABLE relations (
  pk INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  user_id TEXT,
  agent_id TEXT,
  session_id TEXT,
  task_id TEXT,
  source_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  type TEXT NOT NULL,
  text TEXT,
  valid_from INTEGER,
  valid_to INTEGER,
  recorded_at INTEGER NOT NULL,
  expired_at INTEGER,
  confidence REAL NOT NULL,
  supersedes TEXT,
  provenance TEXT NOT NULL
);
CREATE UNIQUE INDEX relations_by_id ON relations (tenant, id);
CREATE INDEX relations_by_source ON relations (tenant, source_id, type);
CREATE INDEX relations_by_target ON relations (tenant, target_id, type);

CREATE TABLE graph_sources (
  tenant TEXT NOT NULL,
  source_id TEXT NOT NULL,
  record_id TEXT NOT NULL,
  PRIMARY KEY (tenant, source_id, record_id)
);
CREATE INDEX graph_sources_by_record ON graph_sources (tenant, record_id);
`;

export const graphSchema: Migration = {
  version: 5,
  name: 'graph: entities, entity names, relations, graph sources',
  up(db) {
    db.exec(SCHEMA);
  },
};
