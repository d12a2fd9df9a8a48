/**
 * The inspector's only way to data: the public REST API on its own origin, with the tenant key the user
 * logged in with as a bearer token. Errors come back as the API's typed error body.
 */
import type { AuditList, CausalChain, Episode, Example, Link, OutcomeReport, Procedure, Retrieval, RetrievalList, WireScopeQuery, WorkingMemory } from './learn-types';
import type { GraphEntity, GraphRelation } from './graph-types';
import { camelParams, snakeKeys } from './wire';
import type { ContextResult, Fact, ForgetReport, MemoryEvent, RememberResult, ScopeQuery, SearchHit } from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

function queryString(q: Query): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => p.append(k, x));
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

export interface EventListQuery extends ScopeQuery {
  type?: readonly string[];
  tag?: readonly string[];
  since?: string;
  until?: string;
  after_seq?: number;
  limit?: number;
}

/** What the server's OpenAPI document says: its paths, and whether it speaks camelCase (see wire.ts). */
interface ServerShape {
  paths: Set<string>;
  camel: boolean;
}

async function readShape(): Promise<ServerShape> {
  try {
    const res = await fetch('/openapi.json');
    if (!res.ok) return { paths: new Set(), camel: false };
    const doc = (await res.json()) as { paths?: Record<string, { get?: { parameters?: { name: string }[] } }> };
    return {
      paths: new Set(Object.keys(doc.paths ?? {})),
      camel: (doc.paths?.['/v1/events']?.get?.parameters ?? []).some((p) => p.name === 'userId'),
    };
  } catch {
    return { paths: new Set(), camel: false };
  }
}

export class EngramApi {
  /** Read once, in the background: nothing waits for it but a query that needs the casing. */
  private readonly shape: Promise<ServerShape> = readShape();
  /** Known snake_case server: answers are used as they come, with no key conversion. */
  private snakeServer = false;

  constructor(private readonly key: string) {
    void this.shape.then((s) => {
      this.snakeServer = !s.camel;
    });
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (!res.ok) {
      const err = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
      throw new ApiError(res.status, err?.code ?? 'INTERNAL', err?.message ?? `HTTP ${res.status}`);
    }
    return (this.snakeServer ? parsed : snakeKeys(parsed)) as T;
  }

  /** A query string in the server's casing; only a query with multi-word names waits for the document. */
  private async q(query: Query): Promise<string> {
    const named = Object.entries(query).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0));
    if (!named.some(([k]) => k.includes('_'))) return queryString(query);
    const { camel } = await this.shape;
    return queryString((camel ? camelParams(query) : query) as Query);
  }

  whoami(): Promise<{ tenant: string; key_id: string }> {
    return this.call('GET', '/v1/me');
  }

  async listEvents(q: EventListQuery): Promise<{ events: MemoryEvent[] }> {
    return this.call('GET', `/v1/events${await this.q({ ...q })}`);
  }

  getEvent(id: string): Promise<MemoryEvent> {
    return this.call('GET', `/v1/events/${encodeURIComponent(id)}`);
  }

  redactEvent(id: string, reason: string): Promise<{ id: string; redacted: true }> {
    return this.call('POST', `/v1/events/${encodeURIComponent(id)}/redact`, { reason });
  }

  search(input: { query: string; kinds?: string[]; k?: number; mode?: 'hybrid' | 'vector' | 'lexical'; scope_mode?: 'layered' | 'strict' } & ScopeQuery): Promise<{ hits: SearchHit[] }> {
    return this.call('POST', '/v1/search', input);
  }

  listFacts(q: ScopeQuery & { include_expired?: boolean; limit?: number }): Promise<{ facts: Fact[] }> {
    return this.call('GET', `/v1/facts${queryString({ ...q })}`);
  }

  getFact(id: string): Promise<Fact> {
    return this.call('GET', `/v1/facts/${encodeURIComponent(id)}`);
  }

  factHistory(key: string): Promise<{ key: string; versions: Fact[] }> {
    return this.call('GET', `/v1/facts/history${queryString({ key })}`);
  }

  remember(input: Record<string, unknown>): Promise<RememberResult> {
    return this.call('POST', '/v1/facts', input);
  }

  getContext(body: Record<string, unknown>): Promise<ContextResult> {
    return this.call('POST', '/v1/context', body);
  }

  forget(input: { ids?: string[]; scope?: ScopeQuery }): Promise<ForgetReport> {
    return this.call('POST', '/v1/forget', input);
  }

  /** Which paths this server's API offers (its public OpenAPI document), so views of absent areas are hidden. */
  async paths(): Promise<Set<string>> {
    return (await this.shape).paths;
  }

  listEpisodes(q: WireScopeQuery & { outcome?: string; closed?: string; limit?: number }): Promise<{ episodes: Episode[] }> {
    return this.call('GET', `/v1/episodes${queryString({ ...q })}`);
  }

  getEpisode(id: string): Promise<{ episode: Episode; links: Link[] }> {
    return this.call('GET', `/v1/episodes/${encodeURIComponent(id)}`);
  }

  causalChain(id: string): Promise<CausalChain> {
    return this.call('GET', `/v1/episodes/${encodeURIComponent(id)}/chain`);
  }

  listProcedures(limit = 500): Promise<{ procedures: Procedure[] }> {
    return this.call('GET', `/v1/procedures${queryString({ limit })}`);
  }

  listExamples(q: WireScopeQuery & { polarity?: string; limit?: number }): Promise<{ examples: Example[] }> {
    return this.call('GET', `/v1/examples${queryString({ ...q })}`);
  }

  giveFeedback(input: WireScopeQuery & { query: string; response: string; feedback: 'positive' | 'negative'; reason?: string }): Promise<{ action: string; example: Example }> {
    return this.call('POST', '/v1/feedback', input);
  }

  deleteExample(id: string): Promise<{ id: string; deleted: true }> {
    return this.call('DELETE', `/v1/examples/${encodeURIComponent(id)}`);
  }

  workingMemory(sessionId: string, q: { user_id?: string; agent_id?: string } = {}): Promise<WorkingMemory> {
    return this.call('GET', `/v1/sessions/${encodeURIComponent(sessionId)}/working-memory${queryString({ ...q })}`);
  }

  getRetrieval(id: string): Promise<Retrieval> {
    return this.call('GET', `/v1/retrievals/${encodeURIComponent(id)}`);
  }

  /** A page of past retrievals, newest first, with their outcomes; `cursor` is the previous page's `next_cursor`. */
  listRetrievals(q: { limit?: number; cursor?: string; since?: string; until?: string } = {}): Promise<RetrievalList> {
    return this.call('GET', `/v1/retrievals${queryString({ ...q })}`);
  }

  /** A page of the audit log, newest first. */
  listAudit(q: { limit?: number; cursor?: string } = {}): Promise<AuditList> {
    return this.call('GET', `/v1/audit${queryString({ ...q })}`);
  }

  /** The knowledge graph's entities (oldest first, at most 5000). */
  async listEntities(): Promise<GraphEntity[]> {
    return (await this.call<{ entities: GraphEntity[] }>('GET', `/v1/entities${queryString({ limit: 5000 })}`)).entities;
  }

  /** Every relation with its history (closed ones too), so the view can read the graph at any time. */
  async listRelations(): Promise<GraphRelation[]> {
    return (await this.call<{ relations: GraphRelation[] }>('GET', `/v1/relations${queryString({ include_expired: 'true', limit: 5000 })}`)).relations;
  }

  recordOutcome(input: { retrieval_id: string; outcome: string; correction?: string; details?: string; root_cause?: string }): Promise<OutcomeReport> {
    return this.call('POST', '/v1/outcomes', input);
  }
}
