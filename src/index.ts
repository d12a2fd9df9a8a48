/**
 * Engram's public API: `openMemory` over the embedded default (a SQLite file and the offline sentence encoder),
 * the facade, its types and errors. Other engines and surfaces are entry points of their own, so importing this
 * one loads none of their dependencies: `engram/server` (HTTP), `engram/mcp`, `engram/postgres` (PostgreSQL and
 * PGlite) and `engram/redis` (the hot tier).
 */
export { openMemory } from './open.js';
export { createMemory, type Memory, type MemoryDeps, type LoggedEvent, type ForgetInput } from './memory.js';
export type { ContextResult, ContextItem, SearchHit, ScoreBreakdown, EpisodeView, FactView, CausalChain } from './read/types.js';
export { EngramError, isEngramError, ERROR_CODES, type ErrorCode, type ErrorIssue } from './core/errors.js';
export { parseEngramConfig, parseContextConfig, type EngramConfig, type EngramConfigInput, type ContextConfig, type ContextConfigInput } from './core/config.js';
export type * from './core/types.js';
export type { Entity, Relation, GraphProvenance } from './core/graph.js';
export type { GraphApi, GraphScope, RefEntity, RefGraph, RefRelation, RelationInput, RelationQueryInput, RelationView } from './graph/api.js';
export type { GraphHitView } from './read/graph-render.js';
export type { EventInput, FactInput } from './write/input.js';
export type { Storage } from './ports/storage.js';
export type { Embedder } from './ports/embedder.js';
export type { Reranker } from './ports/reranker.js';
export type { Llm } from './ports/llm.js';
export { createEmbedder, createReranker, openStorage } from './adapters/registry.js';
export { openSqliteStorage } from './adapters/storage/sqlite/index.js';
export { createUseLiteEmbedder } from './adapters/embedders/use-lite.js';
export { createOpenAiCompatibleEmbedder } from './adapters/embedders/openai-compatible.js';
export { createHeuristicReranker } from './adapters/rerankers/heuristic.js';
export { createHttpReranker } from './adapters/rerankers/http.js';
export { createLlm } from './adapters/llms/registry.js';
export { parseLlmConfig, type LlmConfig } from './core/llm-config.js';
