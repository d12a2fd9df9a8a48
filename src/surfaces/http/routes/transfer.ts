/**
 * Backup export (streamed JSONL, io/backup-format.ts) and import (a backup restored as it was, or JSONL of new
 * records ingested; validated whole before anything is written). The import body has its own size limit
 * (`importLimitBytes`, enforced in app.ts) and is staged in a private temp file: the library reads it twice.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import { EngramError, type ErrorIssue } from '../../../core/errors.js';
import { tenantOf } from '../auth.js';
import { readLines } from '../../../io/jsonl.js';
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
      summary: "A lossless backup of the key's tenant: every record of every kind (events with redactions, fact versions, evidence, episodes, links, procedures, examples, retrievals, working memory, audit), one JSON line each",
      description:
        'Streamed JSON Lines: a header `{"kind":"header","format":"engram-backup","version":1,"tenant":…}`, then `{"kind":<kind>,"record":{…}}` lines (records as stored: ids, seqs, versions, counters and epoch-millisecond times kept), then `{"kind":"end","counts":{…}}`. A file without its closing line was cut short and is refused on import. API keys are not exported.',
      responses: {
        200: { content: { [NDJSON]: { schema: z.string() } }, description: 'the backup, one JSON object per line' },
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
      summary: 'Restore a backup (what GET /v1/export writes) into the key’s tenant, or import JSONL of new events and facts; every line is validated before any is written',
      description:
        'A backup is restored as it was (ids, seqs, versions and times kept), in batches of one transaction each; a record already stored under its id is left as it is, so importing the same backup again writes nothing. A header naming another tenant is refused (403).',
      request: { body: { content: { [NDJSON]: { schema: z.string() } }, required: true } },
      responses: { 200: json(ImportReportSchema, 'what was written and what was already there'), ...commonErrors },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const type = (c.req.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
      if (!JSONL_TYPES.includes(type)) {
        throw new EngramError('VALIDATION', `expected Content-Type: ${NDJSON}`, { issues: [{ path: 'content-type', message: `expected ${NDJSON}` }] });
      }
      const dir = await mkdtemp(join(tmpdir(), 'engram-import-'));
      try {
        const file = join(dir, 'body.jsonl');
        await stageBody(c.req.raw.body, file);
        await assertLinesOwnTenant(file, tenant);
        return c.json(await memory.importJsonl(file, { tenant }), 200);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
}

/** Streams the body to a private file, checking it is UTF-8 on the way: never the whole body in memory. */
async function stageBody(body: ReadableStream<Uint8Array> | null, file: string): Promise<void> {
  const out = createWriteStream(file, { mode: 0o600 });
  if (!body) {
    out.end();
    await once(out, 'finish');
    return;
  }
  try {
    await pipeline(Readable.fromWeb(body.pipeThrough(new TextDecoderStream('utf-8', { fatal: true })) as NodeReadableStream<string>), out);
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA' || (e instanceof TypeError && /encoded data was not valid/i.test(e.message))) {
      throw new EngramError('VALIDATION', 'request body is not valid UTF-8', { issues: [{ path: '', message: 'invalid UTF-8' }] });
    }
    throw e;
  }
}

/**
 * A line naming another tenant is FORBIDDEN, as in every body (a backup names its tenant in its header);
 * unparsable lines are the library's to reject.
 */
async function assertLinesOwnTenant(file: string, tenant: string): Promise<void> {
  const issues: ErrorIssue[] = [];
  for await (const { text, line } of readLines(file)) {
    if (issues.length >= 50) break;
    if (!text.includes('"tenant"')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    const claimed = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).tenant : undefined;
    if (claimed !== undefined && claimed !== null && claimed !== tenant) issues.push({ path: `line ${line}.tenant`, message: 'names another tenant' });
  }
  if (issues.length) throw new EngramError('FORBIDDEN', `import names another tenant (${issues[0]!.path}); nothing written`, { issues });
}

export const transferRoutes: RouteModule = { name: 'transfer', register };
