/**
 * `engram/client`: a typed client for the Engram HTTP API. Inputs and results are the types generated from
 * the served OpenAPI document (schema.ts); every failure is an `EngramError` carrying the server's code,
 * issues and request id (or UNAVAILABLE for a network failure); 429/503 and network errors are retried with
 * backoff (retry.ts). `api` is the underlying openapi-fetch client for any route by path.
 */
import createClient, { type Client } from 'openapi-fetch';
import { codeForHttpStatus, ERROR_CODES, EngramError, type ErrorCode, type ErrorIssue } from '../core/errors.js';
import { retryingFetch, type RetryOptions } from './retry.js';
import type { components, paths } from './schema.js';

export { EngramError, isEngramError, type ErrorCode, type ErrorIssue } from '../core/errors.js';
export type { components, paths } from './schema.js';

type Schemas = components['schemas'];
export type EngramApi = Client<paths>;

export interface EngramClientOptions extends RetryOptions {
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** A tenant key (egm_…), or an admin key for the admin routes. */
  apiKey: string;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

type Query<P extends keyof paths, M extends 'get'> = paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** What a failed answer becomes: the server's error body when there is one, else the status's code. */
export function errorFromResponse(response: Response, body: unknown): EngramError {
  const e = (body as { error?: { code?: unknown; message?: unknown; issues?: unknown; request_id?: unknown } } | undefined)?.error;
  const code: ErrorCode = typeof e?.code === 'string' && (ERROR_CODES as readonly string[]).includes(e.code) ? (e.code as ErrorCode) : codeForHttpStatus(response.status);
  const message = typeof e?.message === 'string' ? e.message : `HTTP ${response.status} ${response.statusText}`.trim();
  const issues = Array.isArray(e?.issues) ? (e.issues as ErrorIssue[]) : [];
  const details: Record<string, unknown> = { status: response.status, ...(typeof e?.request_id === 'string' ? { requestId: e.request_id } : {}) };
  if (response.status === 429) details.limit = 'rate';
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter) details.retryAfter = retryAfter;
  return new EngramError(code, message, { issues, details });
}

async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (e) {
    throw new EngramError('UNAVAILABLE', `the Engram server could not be reached: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  if (!result.response.ok || result.error !== undefined) throw errorFromResponse(result.response, result.error);
  return result.data as T;
}

export function createEngramClient(opts: EngramClientOptions) {
  const api: EngramApi = createClient<paths>({
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${opts.apiKey}` },
    fetch: retryingFetch(opts.fetch ?? globalThis.fetch, opts),
  });
  const id = (value: string) => ({ params: { path: { id: value } } });
  const session = (value: string) => ({ session_id: value });

  return {
    api,
    // --- timeline ---
    logEvent: (body: Schemas['EventInput']) => unwrap(api.POST('/v1/events', { body })),
    logEvents: (events: Schemas['EventInput'][]) => unwrap(api.POST('/v1/events/batch', { body: { events } })).then((r) => r.events),
    listEvents: (query: Query<'/v1/events', 'get'> = {}) => unwrap(api.GET('/v1/events', { params: { query } })).then((r) => r.events),
    queryEvents: (body: Schemas['EventQuery']) => unwrap(api.POST('/v1/events/query', { body })).then((r) => r.events),
    getEvent: (eventId: string) => unwrap(api.GET('/v1/events/{id}', id(eventId))),
    redact: (eventId: string, reason: string) => unwrap(api.POST('/v1/events/{id}/redact', { ...id(eventId), body: { reason } })),
    /** A page of the audit log, newest first; pass `next_cursor` back as `cursor`. */
    listAudit: (query: Query<'/v1/audit', 'get'> = {}) => unwrap(api.GET('/v1/audit', { params: { query } })),
    // --- facts ---
    remember: (body: Schemas['FactInput']) => unwrap(api.POST('/v1/facts', { body })),
    getFact: (factId: string) => unwrap(api.GET('/v1/facts/{id}', id(factId))),
    factHistory: (key: string) => unwrap(api.GET('/v1/facts/history', { params: { query: { key } } })).then((r) => r.versions),
    // --- memories (Mem0-style CRUD, docs/scopes.md#crud) ---
    listMemories: (query: Query<'/v1/memories', 'get'> = {}) => unwrap(api.GET('/v1/memories', { params: { query } })),
    getMemory: (memoryId: string, query: Query<'/v1/memories/{id}', 'get'> = {}) => unwrap(api.GET('/v1/memories/{id}', { params: { path: { id: memoryId }, query } })),
    updateMemory: (memoryId: string, body: Schemas['MemoryUpdate']) => unwrap(api.PUT('/v1/memories/{id}', { ...id(memoryId), body })),
    deleteMemory: (memoryId: string) => unwrap(api.DELETE('/v1/memories/{id}', id(memoryId))),
    memoryHistory: (memoryId: string) => unwrap(api.GET('/v1/memories/{id}/history', id(memoryId))).then((r) => r.versions),
    // --- retrieval ---
    search: (body: Schemas['SearchInput']) => unwrap(api.POST('/v1/search', { body })),
    getContext: (body: Schemas['ContextRequest']) => unwrap(api.POST('/v1/context', { body })),
    getRetrieval: (retrievalId: string) => unwrap(api.GET('/v1/retrievals/{id}', id(retrievalId))),
    /** A page of past retrievals, newest first, with their outcomes; pass `next_cursor` back as `cursor`. */
    listRetrievals: (query: Query<'/v1/retrievals', 'get'> = {}) => unwrap(api.GET('/v1/retrievals', { params: { query } })),
    // --- learning ---
    recordOutcome: (body: Schemas['OutcomeInput']) => unwrap(api.POST('/v1/outcomes', { body })),
    consolidate: (body: Schemas['ConsolidateInput'] = {}) => unwrap(api.POST('/v1/consolidate', { body })),
    listEpisodes: (query: Query<'/v1/episodes', 'get'> = {}) => unwrap(api.GET('/v1/episodes', { params: { query } })).then((r) => r.episodes),
    getEpisode: (episodeId: string) => unwrap(api.GET('/v1/episodes/{id}', id(episodeId))),
    causalChain: (episodeId: string) => unwrap(api.GET('/v1/episodes/{id}/chain', id(episodeId))),
    link: (body: Schemas['LinkInput']) => unwrap(api.POST('/v1/links', { body })),
    links: (memoryId: string, direction?: 'in' | 'out' | 'both') =>
      unwrap(api.GET('/v1/links', { params: { query: { id: memoryId, ...(direction ? { direction } : {}) } } })).then((r) => r.links),
    // --- procedures ---
    listProcedures: (limit?: number) => unwrap(api.GET('/v1/procedures', { params: { query: limit === undefined ? {} : { limit } } })).then((r) => r.procedures),
    putProcedure: (body: Schemas['ProcedureInput']) => unwrap(api.POST('/v1/procedures', { body })),
    findProcedures: (body: Schemas['ProcedureMatchInput']) => unwrap(api.POST('/v1/procedures/match', { body })).then((r) => r.matches),
    recordProcedureOutcome: (procedureId: string, body: Schemas['ProcedureOutcomeInput']) => unwrap(api.POST('/v1/procedures/{id}/outcome', { ...id(procedureId), body })),
    // --- feedback examples ---
    giveFeedback: (body: Schemas['FeedbackInput']) => unwrap(api.POST('/v1/feedback', { body })),
    analyzeConversations: (body: Schemas['AnalyzeInput']) => unwrap(api.POST('/v1/feedback/analyze', { body })),
    listExamples: (query: Query<'/v1/examples', 'get'> = {}) => unwrap(api.GET('/v1/examples', { params: { query } })).then((r) => r.examples),
    similarExamples: (body: Schemas['SimilarExamplesInput']) => unwrap(api.POST('/v1/examples/similar', { body })),
    guidance: (body: Schemas['GuidanceInput']) => unwrap(api.POST('/v1/examples/guidance', { body })),
    deleteExample: (exampleId: string) => unwrap(api.DELETE('/v1/examples/{id}', id(exampleId))),
    // --- working memory ---
    working: {
      view: (sessionId: string) => unwrap(api.GET('/v1/sessions/{session_id}/working-memory', { params: { path: session(sessionId) } })),
      addTurn: (sessionId: string, body: Schemas['WorkingMemoryTurnInput']) => unwrap(api.POST('/v1/sessions/{session_id}/working-memory/turns', { params: { path: session(sessionId) }, body })),
      append: (sessionId: string, body: Schemas['WorkingMemoryAppendInput']) => unwrap(api.POST('/v1/sessions/{session_id}/working-memory/items', { params: { path: session(sessionId) }, body })),
      replace: (sessionId: string, itemId: string, body: Schemas['WorkingMemoryReplaceInput']) =>
        unwrap(api.PATCH('/v1/sessions/{session_id}/working-memory/items/{item_id}', { params: { path: { ...session(sessionId), item_id: itemId } }, body })),
      remove: (sessionId: string, itemId: string) => unwrap(api.DELETE('/v1/sessions/{session_id}/working-memory/items/{item_id}', { params: { path: { ...session(sessionId), item_id: itemId } } })),
      setPlan: (sessionId: string, plan: string | null) => unwrap(api.PUT('/v1/sessions/{session_id}/working-memory/plan', { params: { path: session(sessionId) }, body: { plan } })),
      setEntity: (sessionId: string, key: string, value: string | null) =>
        unwrap(api.PUT('/v1/sessions/{session_id}/working-memory/entities/{key}', { params: { path: { ...session(sessionId), key } }, body: { value } })),
      pageOut: (sessionId: string, itemId: string, body: Schemas['WorkingMemoryPageOutInput'] = {}) =>
        unwrap(api.POST('/v1/sessions/{session_id}/working-memory/items/{item_id}/page-out', { params: { path: { ...session(sessionId), item_id: itemId } }, body })),
      pageIn: (sessionId: string, body: Schemas['WorkingMemoryPageInInput']) => unwrap(api.POST('/v1/sessions/{session_id}/working-memory/page-in', { params: { path: session(sessionId) }, body })),
      clear: (sessionId: string) => unwrap(api.DELETE('/v1/sessions/{session_id}/working-memory', { params: { path: session(sessionId) } })),
    },
    // --- retention and service ---
    forget: (body: Schemas['ForgetInput']) => unwrap(api.POST('/v1/forget', { body })),
    whoami: () => unwrap(api.GET('/v1/me')),
  };
}

export type EngramClient = ReturnType<typeof createEngramClient>;
