/** The timeline: log one event or a batch, list and query, get by id, redact. */
import { createRoute, z } from '@hono/zod-openapi';
import { EngramError } from '../../../core/errors.js';
import type { FetchEventsInput } from '../../../memory-queries.js';
import type { EventInput } from '../../../write/input.js';
import { assertOwnTenant, tenantOf } from '../auth.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { presentEvent, presentLoggedEvent } from '../present.js';
import { fromWire } from '../wire.js';
import { EventSchema, LoggedEventSchema } from '../schemas/records.js';
import { eventsListQuery, eventsQueryBody, idParams, redactBody, writeBodies } from '../schemas/requests.js';
import { commonErrors, conflict, json, jsonBody, notFound } from '../schemas/responses.js';

const tags = ['events'];
const eventList = z.object({ events: z.array(EventSchema) }).openapi('EventList');

function register(app: EngramApp, { memory }: RouteContext): void {
  const bodies = writeBodies(memory.config.limits);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/events',
      operationId: 'logEvent',
      tags,
      summary: 'Log one event (seed 000 log_event); acknowledged once durable',
      request: { body: jsonBody(bodies.event) },
      responses: {
        201: json(LoggedEventSchema, 'stored'),
        200: json(LoggedEventSchema, 'the tenant already held this event (duplicate: true); nothing written'),
        ...commonErrors,
        ...conflict,
      },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const input = c.req.valid('json');
      assertOwnTenant(input.tenant, tenant, 'tenant');
      const e = await memory.logEvent({ ...(fromWire(input) as EventInput), tenant });
      return c.json(presentLoggedEvent(e), e.duplicate ? 200 : 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/events/batch',
      operationId: 'logEvents',
      tags,
      summary: 'Log a batch of events atomically (all or nothing)',
      request: { body: jsonBody(bodies.eventBatch) },
      responses: {
        201: json(z.object({ events: z.array(LoggedEventSchema) }), 'stored, in input order'),
        ...commonErrors,
        ...conflict,
      },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { events } = c.req.valid('json');
      events.forEach((e, i) => assertOwnTenant(e.tenant, tenant, `events.${i}.tenant`));
      const written = await memory.logEvents(events.map((e) => ({ ...(fromWire(e) as EventInput), tenant })));
      return c.json({ events: written.map(presentLoggedEvent) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/events',
      operationId: 'listEvents',
      tags,
      summary: 'List events by scope, type, tag and time (chronological; paging with afterSeq)',
      request: { query: eventsListQuery },
      responses: { 200: json(eventList, 'matching events'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const q = c.req.valid('query');
      assertOwnTenant(q.tenant, tenant, 'query.tenant');
      const { type, tag, since, until, as_of, known_at, tenant: _t, ...rest } = q;
      const input: FetchEventsInput = {
        ...fromWire(rest),
        ...(type ? { types: type } : {}),
        ...(tag ? { tags: tag } : {}),
        ...(since !== undefined ? { since: timeParam(since) } : {}),
        ...(until !== undefined ? { until: timeParam(until) } : {}),
        ...(as_of !== undefined ? { asOf: timeParam(as_of) } : {}),
        ...(known_at !== undefined ? { knownAt: timeParam(known_at) } : {}),
        tenant,
      };
      const events = await memory.fetchEvents(input);
      return c.json({ events: events.map(presentEvent) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/events/query',
      operationId: 'queryEvents',
      tags,
      summary: 'Query events with the full filter language (metadata filters, and/or/not)',
      request: { body: jsonBody(eventsQueryBody) },
      responses: { 200: json(eventList, 'matching events'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const q = c.req.valid('json');
      assertOwnTenant(q.tenant, tenant, 'tenant');
      const events = await memory.fetchEvents({ ...fromWire(q), tenant });
      return c.json({ events: events.map(presentEvent) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/events/{id}',
      operationId: 'getEvent',
      tags,
      summary: 'Get one event by id',
      request: { params: idParams('event') },
      responses: { 200: json(EventSchema, 'the event'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      const [event] = await memory.storage.getEvents(tenant, [id]);
      if (!event) throw new EngramError('NOT_FOUND', `no event ${id}`);
      return c.json(presentEvent(event), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/events/{id}/redact',
      operationId: 'redactEvent',
      tags,
      summary: "Remove an event's content for good, leaving a tombstone and an audit record",
      request: { params: idParams('event'), body: jsonBody(redactBody) },
      responses: { 200: json(z.object({ id: z.string(), redacted: z.literal(true) }), 'redacted'), ...commonErrors, ...notFound },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      await memory.redact(id, reason, tenant);
      return c.json({ id, redacted: true as const }, 200);
    },
  );
}

/** Query strings carry text: a bare number is epoch milliseconds, anything else goes to the library as ISO. */
function timeParam(v: string): string | number {
  return /^\d+$/.test(v) ? Number(v) : v;
}

export const eventRoutes: RouteModule = { name: 'events', register };
