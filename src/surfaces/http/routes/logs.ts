/**
 * The retrieval log and the audit log as paged lists, newest first, confined to the key's tenant: past
 * getContext calls with what they handed out (score breakdowns) and the outcomes recorded against them, and
 * the audit trail of redactions, forgets, sweeps and imports (ids and actions, never content).
 */
import { createRoute } from '@hono/zod-openapi';
import { EngramError } from '../../../core/errors.js';
import { parseFilter } from '../../../core/filter.js';
import { isId } from '../../../core/ids.js';
import { OUTCOMES, type JsonObject, type MemoryEvent, type Outcome } from '../../../core/types.js';
import type { AuditCursor, AuditRecord, RetrievalRecord, Storage } from '../../../ports/storage.js';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { presentRetrievedItems } from '../present.js';
import { AuditListSchema, auditListQuery, RetrievalListSchema, retrievalListQuery } from '../schemas/log-records.js';
import { commonErrors, json } from '../schemas/responses.js';
import { timeParam } from './time.js';

const iso = (ms: number) => new Date(ms).toISOString();

function badCursor(): never {
  throw new EngramError('VALIDATION', 'cursor: not a cursor this list returned', { issues: [{ path: 'cursor', message: 'expected the next_cursor of a previous page' }] });
}

/** An audit cursor names the last record of a page: `<at>~<id>`. */
export function auditCursor(rec: Pick<AuditRecord, 'at' | 'id'>): string {
  return `${rec.at}~${rec.id}`;
}

export function parseAuditCursor(cursor: string): AuditCursor {
  const m = /^(\d{1,16}(?:\.\d{1,6})?)~(.+)$/.exec(cursor);
  if (!m || !isId('audit', m[2])) badCursor();
  return { at: Number(m[1]), id: m[2] };
}

/** Outcome and correction events that name these retrievals (`metadata.retrieval_id`), by retrieval. */
async function outcomesOf(storage: Storage, tenant: string, ids: readonly string[]): Promise<Map<string, MemoryEvent[]>> {
  const by = new Map<string, MemoryEvent[]>();
  if (ids.length === 0) return by;
  const events = await storage.queryEvents({ tenant, types: ['outcome', 'correction'], filter: parseFilter({ retrieval_id: { in: [...ids] } }), now: Date.now() });
  for (const e of events) {
    const rid = e.metadata.retrieval_id as string;
    by.set(rid, [...(by.get(rid) ?? []), e]);
  }
  return by;
}

function presentRetrieval(r: RetrievalRecord, outcomes: readonly MemoryEvent[]) {
  return {
    id: r.id,
    query: r.query,
    created_at: iso(r.createdAt),
    item_ids: r.itemIds,
    ...(r.items ? { items: presentRetrievedItems(r.items) as never } : {}),
    ...(r.config !== undefined && r.config !== null ? { config: r.config as never } : {}),
    outcomes: outcomes.map((e) => {
      const o = e.metadata.outcome;
      return {
        event_id: e.id,
        at: iso(e.ts),
        type: e.type as 'outcome' | 'correction',
        ...(typeof o === 'string' && (OUTCOMES as readonly string[]).includes(o) ? { outcome: o as Outcome } : {}),
        text: e.content,
      };
    }),
  };
}

function register(app: EngramApp, { memory }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/retrievals',
      operationId: 'listRetrievals',
      tags: ['learn'],
      summary: 'Past retrievals (POST /v1/context), newest first: what each handed out with its score breakdown, and the outcomes recorded against it',
      request: { query: retrievalListQuery },
      responses: { 200: json(RetrievalListSchema, 'a page of retrievals'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const q = c.req.valid('query');
      assertOwnTenant(q.tenant, tenant, 'query.tenant');
      if (q.cursor !== undefined && !isId('retrieval', q.cursor)) badCursor();
      const limit = q.limit ?? 50;
      const found = await memory.storage.listRetrievals({
        tenant,
        limit,
        beforeId: q.cursor,
        ...(q.since !== undefined ? { since: timeParam(q.since, 'since') } : {}),
        ...(q.until !== undefined ? { until: timeParam(q.until, 'until') } : {}),
      });
      const outcomes = await outcomesOf(memory.storage, tenant, found.map((r) => r.id));
      return c.json(
        {
          retrievals: found.map((r) => presentRetrieval(r, outcomes.get(r.id) ?? [])),
          next_cursor: found.length === limit ? found.at(-1)!.id : null,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/audit',
      operationId: 'listAudit',
      tags: ['retention'],
      summary: 'The audit log, newest first: redactions, forgets, sweeps, PII scrubs and imports (ids and actions, never content)',
      request: { query: auditListQuery },
      responses: { 200: json(AuditListSchema, 'a page of audit records'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const q = c.req.valid('query');
      assertOwnTenant(q.tenant, tenant, 'query.tenant');
      const limit = q.limit ?? 100;
      const found = await memory.storage.listAudit(tenant, limit, q.cursor !== undefined ? parseAuditCursor(q.cursor) : undefined);
      return c.json(
        {
          audit: found.map((a) => ({ id: a.id, at: iso(a.at), action: a.action, target_ids: a.targetIds, details: a.details as JsonObject })),
          next_cursor: found.length === limit ? auditCursor(found.at(-1)!) : null,
        },
        200,
      );
    },
  );
}

export const logRoutes: RouteModule = { name: 'logs', register };
