/**
 * JSONL export (streamed) and import (validated whole before anything is written, see io/jsonl.ts). The
 * import body has its own size limit (`importLimitBytes`, enforced in app.ts) and is staged in a private temp
 * file because the library imports from a path.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import { EngramError, type ErrorIssue } from '../../../core/errors.js';
import { tenantOf } from '../auth.js';
import { decodeUtf8 } from '../json-guard.js';
import type { EngramApp, RouteContext, RouteModule } from '../env.js';
import { ImportReportSchema } from '../schemas/records.js';
import { commonErrors, json } from '../schemas/responses.js';

const tags = ['import/export'];
export const IMPORT_PATH = '/v1/import';
const NDJSON = 'application/x-ndjson';
const JSONL_TYPES = [NDJSON, 'application/jsonl', 'application/x-jsonlines', 'text/plain'];

function register(app: EngramApp, { memory, logger }: RouteContext): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/export',
      operationId: 'exportJsonl',
      tags,
      summary: "Every live event (chronological) then every fact version of the key's tenant, one JSON record per line",
      responses: {
        200: { content: { [NDJSON]: { schema: z.string() } }, description: 'JSONL: {"record":"event",…} and {"record":"fact",…} lines' },
        ...commonErrors,
      },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const records = memory.exportRecords(tenant);
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = await records.next();
            if (next.done) controller.close();
            else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
          } catch (e) {
            logger.error({ reqId: c.get('requestId'), code: e instanceof EngramError ? e.code : 'INTERNAL' }, 'export failed mid-stream');
            controller.error(e);
          }
        },
        async cancel() {
          await records.return(undefined);
        },
      });
      // zod-openapi types `application/x-ndjson` as an unreachable JSON variant (`never`); the Response is right.
      return new Response(stream, { status: 200, headers: { 'content-type': NDJSON } }) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: IMPORT_PATH,
      operationId: 'importJsonl',
      tags,
      summary: 'Import JSONL (the export format, or seed-000 events); all lines are validated before any is written',
      request: { body: { content: { [NDJSON]: { schema: z.string() } }, required: true } },
      responses: { 200: json(ImportReportSchema, 'what was written and what was already there'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const type = (c.req.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
      if (!JSONL_TYPES.includes(type)) {
        throw new EngramError('VALIDATION', `expected Content-Type: ${NDJSON}`, { issues: [{ path: 'content-type', message: `expected ${NDJSON}` }] });
      }
      const text = decodeUtf8(await c.req.arrayBuffer());
      assertLinesOwnTenant(text, tenant);
      const dir = await mkdtemp(join(tmpdir(), 'engram-import-'));
      try {
        const file = join(dir, 'body.jsonl');
        await writeFile(file, text, { mode: 0o600 });
        return c.json(await memory.importJsonl(file, { tenant }), 200);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
}

/** A line naming another tenant is FORBIDDEN, as in every body; unparsable lines are the library's to reject. */
function assertLinesOwnTenant(text: string, tenant: string): void {
  const issues: ErrorIssue[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.includes('"tenant"') || issues.length >= 50) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    const claimed = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).tenant : undefined;
    if (claimed !== undefined && claimed !== null && claimed !== tenant) issues.push({ path: `line ${i + 1}.tenant`, message: 'names another tenant' });
  });
  if (issues.length) throw new EngramError('FORBIDDEN', `import names another tenant (${issues[0]!.path}); nothing written`, { issues });
}

export const transferRoutes: RouteModule = { name: 'transfer', register };
