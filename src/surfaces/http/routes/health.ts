/**
 * Liveness and readiness, both public. `/healthz`: the process answers. `/readyz`: storage answers a query,
 * the embedder is loaded, and the server is not draining; otherwise 503 so a balancer stops sending traffic.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { json } from '../schemas/responses.js';

const tags = ['health'];
const CHECK_TIMEOUT_MS = 2_000;
/**
 * Readiness counts the embedding backlog only up to here: a probe must stay cheap, and the full count reads
 * every waiting doc (about 1.6 s at a million on the embedded store, holding its thread meanwhile).
 */
export const READY_BACKLOG_CAP = 10_000;

const readiness = z
  .object({
    status: z.enum(['ready', 'not_ready', 'draining']),
    storage: z.enum(['ok', 'failed']),
    embedder: z.enum(['ok', 'failed']),
    embedding_backlog: z
      .number()
      .int()
      .optional()
      .openapi({ description: `texts waiting for a vector (lexical search already finds them), counted up to ${READY_BACKLOG_CAP.toLocaleString('en-US')}` }),
    embedding_backlog_at_least: z.boolean().optional().openapi({ description: 'true when the count stopped at its cap: at least that many are waiting' }),
  })
  .openapi('Readiness');

function register(app: EngramApp, { memory, isDraining }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/healthz',
      operationId: 'health',
      tags,
      summary: 'Liveness: the process is up',
      security: [],
      responses: { 200: json(z.object({ status: z.literal('ok') }), 'up') },
    }),
    (c) => c.json({ status: 'ok' as const }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/readyz',
      operationId: 'ready',
      tags,
      summary: 'Readiness: storage and embedder ready, not shutting down',
      security: [],
      responses: { 200: json(readiness, 'ready'), 503: json(readiness, 'not ready or draining') },
    }),
    async (c) => {
      const [backlog, embedder] = await Promise.all([
        withTimeout(memory.embeddingBacklog({ upTo: READY_BACKLOG_CAP })),
        withTimeout(memory.embedder.init()),
      ]);
      const storageOk = typeof backlog === 'number';
      const embedderOk = embedder !== undefined;
      const status = isDraining() ? 'draining' : storageOk && embedderOk ? 'ready' : 'not_ready';
      const body = {
        status,
        storage: storageOk ? 'ok' : 'failed',
        embedder: embedderOk ? 'ok' : 'failed',
        ...(storageOk ? { embedding_backlog: backlog, embedding_backlog_at_least: backlog >= READY_BACKLOG_CAP } : {}),
      } as const;
      return status === 'ready' ? c.json(body, 200) : c.json(body, 503);
    },
  );
}

/** The value, or undefined when the check fails or hangs (a readiness probe must answer). */
async function withTimeout<T>(p: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([p.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: RouteModule = { name: 'health', register };
