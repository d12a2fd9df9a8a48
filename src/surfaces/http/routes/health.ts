/**
 * Liveness and readiness, both public. `/healthz`: the process answers. `/readyz`: storage answers a query,
 * the embedder is loaded, and the server is not draining; otherwise 503 so a balancer stops sending traffic.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { json } from '../schemas/responses.js';

const tags = ['health'];
const CHECK_TIMEOUT_MS = 2_000;
/** A count is reused for this many times what it cost to make (see BacklogGauge). */
const RECOUNT_COST_FACTOR = 20;

/**
 * The true embedding backlog for probes, without a cap. A full count reads every waiting doc (about 1.6 s at a
 * million on the embedded store), so a count is reused until 20 times its own cost has passed — at small
 * backlogs that is milliseconds and every probe sees a fresh count; at a million a count is at most ~30 s old
 * and counting takes at most 5 % of the time. Concurrent probes share one count in flight.
 */
export class BacklogGauge {
  private last: { count: number; at: number; reuseUntil: number } | undefined;
  private inflight: Promise<{ count: number; at: number }> | undefined;

  constructor(
    private readonly count: () => Promise<number>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async read(): Promise<{ count: number; ageMs: number }> {
    const t = this.now();
    if (this.last && t < this.last.reuseUntil) return { count: this.last.count, ageMs: Math.round(t - this.last.at) };
    this.inflight ??= (async () => {
      const t0 = this.now();
      try {
        const count = await this.count();
        const t1 = this.now();
        this.last = { count, at: t1, reuseUntil: t1 + RECOUNT_COST_FACTOR * (t1 - t0) };
        return { count, at: t1 };
      } finally {
        this.inflight = undefined;
      }
    })();
    const r = await this.inflight;
    return { count: r.count, ageMs: Math.max(0, Math.round(this.now() - r.at)) };
  }
}

const readiness = z
  .object({
    status: z.enum(['ready', 'not_ready', 'draining']),
    storage: z.enum(['ok', 'failed']),
    embedder: z.enum(['ok', 'failed']),
    embedding_backlog: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'texts waiting for a vector (lexical search already finds them): the full count, no cap' }),
    embedding_backlog_age_ms: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'how old that count is: a large backlog is recounted at most every 20× the cost of counting it' }),
  })
  .openapi('Readiness');

function register(app: EngramApp, { memory, isDraining }: RouteContext): void {
  const gauge = new BacklogGauge(() => memory.embeddingBacklog());
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
        withTimeout(gauge.read()),
        withTimeout(memory.embedder.init()),
      ]);
      const storageOk = backlog !== undefined;
      const embedderOk = embedder !== undefined;
      const status = isDraining() ? 'draining' : storageOk && embedderOk ? 'ready' : 'not_ready';
      const body = {
        status,
        storage: storageOk ? 'ok' : 'failed',
        embedder: embedderOk ? 'ok' : 'failed',
        ...(storageOk ? { embedding_backlog: backlog.count, embedding_backlog_age_ms: backlog.ageMs } : {}),
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
