/**
 * JSONL import and export. One record per line:
 *   {"record":"event", ...event fields}     (also plain seed-000 events: {"task_id":…,"ts":…,"type":…})
 *   {"record":"fact",  ...fact fields}      (also any line with `text` and no `type`)
 *   {"record":"entity", ...entity fields} / {"record":"relation", ...relation fields}   (the knowledge graph)
 * Export writes every live event, every fact version, every entity and every relation (closed ones too);
 * re-importing an export is idempotent (event, entity and relation ids are kept; facts dedupe by key and content
 * hash). Import validates the whole file before writing anything.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { EngramError, isEngramError, type ErrorIssue } from '../core/errors.js';
import { contentHash } from '../core/text.js';
import type { Entity, Relation } from '../core/graph.js';
import type { Fact, MemoryEvent } from '../core/types.js';
import type { Memory } from '../memory.js';
import { prepareEvents, type EventWriteContext } from '../write/events.js';
import { parseFactInput } from '../write/facts.js';
import type { FactInput } from '../write/input.js';
import { splitLongText } from '../write/split-long.js';

export interface ImportProgress {
  phase: 'validate' | 'write';
  lines: number;
  total: number;
}

export interface ImportReport {
  lines: number;
  events: number;
  facts: number;
  duplicates: number;
}

type Line = { record: 'event' | 'fact' | 'entity' | 'relation'; body: Record<string, unknown>; line: number };

const EVENT_EXPORT_ONLY = ['seq', 'recordedAt', 'contentHash', 'pii', 'record'];
const FACT_EXPORT_ONLY = ['id', 'version', 'supersedes', 'piiReport', 'supportCount', 'contradictCount', 'recordedAt', 'expiredAt', 'contentHash', 'provenance', 'record'];

function classify(raw: unknown, line: number): Line {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new EngramError('VALIDATION', `line ${line}: expected a JSON object`, { issues: [{ path: `line ${line}`, message: 'expected a JSON object' }] });
  }
  const body = raw as Record<string, unknown>;
  if (body.record === 'entity' || body.record === 'relation') return classifyGraph(body, line);
  const record = body.record === 'fact' || body.record === 'event' ? body.record : 'text' in body && !('type' in body) ? 'fact' : 'event';
  const drop = record === 'event' ? EVENT_EXPORT_ONLY : FACT_EXPORT_ONLY;
  const cleaned = Object.fromEntries(Object.entries(body).filter(([k, v]) => !drop.includes(k) && v !== null));
  return { record, body: cleaned, line };
}

/** Graph lines are records as exported (ids, times in epoch ms); storage validates them again on write. */
function classifyGraph(body: Record<string, unknown>, line: number): Line {
  const { record, ...rest } = body;
  const idOk = typeof rest.id === 'string' && rest.id.startsWith(record === 'entity' ? 'ent_' : 'rel_');
  if (!idOk || typeof rest.tenant !== 'string' || typeof rest.provenance !== 'object' || rest.provenance === null) {
    throw new EngramError('VALIDATION', `line ${line}: a ${String(record)} line needs its id, tenant and provenance as exported`, { issues: [{ path: `line ${line}`, message: `invalid ${String(record)}` }] });
  }
  return { record: record as 'entity' | 'relation', body: rest, line };
}

async function* readLines(path: string): AsyncGenerator<{ text: string; line: number }> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  for await (const text of rl) {
    n++;
    if (text.trim() !== '') yield { text, line: n };
  }
}

/**
 * An event whose content exceeds the content limit, as consecutive events that each fit (`chunkLong`): the same
 * fields, `metadata.part` / `metadata.parts` added, the id (if any) kept by the first part only.
 */
export function chunkEvent(l: Line, max: number): Line[] {
  const content = l.body.content;
  if (l.record !== 'event' || typeof content !== 'string' || content.length <= max) return [l];
  const parts = splitLongText(content, max);
  const metadata = typeof l.body.metadata === 'object' && l.body.metadata !== null ? l.body.metadata : {};
  return parts.map((part, i) => {
    const body: Record<string, unknown> = { ...l.body, content: part, metadata: { ...metadata, part: i + 1, parts: parts.length } };
    if (i > 0) delete body.id;
    return { ...l, body };
  });
}

async function collect(path: string, ctx: EventWriteContext, opts: ImportOptions): Promise<Line[]> {
  const lines: Line[] = [];
  const issues: ErrorIssue[] = [];
  const onProgress = opts.onProgress;
  for await (const { text, line } of readLines(path)) {
    try {
      const classified = classify(JSON.parse(text), line);
      const parts = opts.chunkLong ? chunkEvent(classified, ctx.config.limits.maxContentChars) : [classified];
      for (const parsed of parts) {
        if (parsed.record === 'event') prepareEvents(ctx, [parsed.body], `line ${line}`);
        else if (parsed.record === 'fact') parseFactInput(ctx, parsed.body, `line ${line}`);
      }
      lines.push(...parts);
    } catch (e) {
      const found = isEngramError(e) ? e.issues : [];
      issues.push(...(found.length ? found : [{ path: `line ${line}`, message: e instanceof Error ? e.message : String(e) }]));
      if (issues.length >= 50) break;
    }
    if (line % 1000 === 0) onProgress?.({ phase: 'validate', lines: lines.length, total: 0 });
  }
  if (issues.length) {
    throw new EngramError('VALIDATION', `import rejected, nothing written: ${issues[0]!.path}: ${issues[0]!.message}`, { issues });
  }
  return lines;
}

export interface ImportOptions {
  tenant?: string;
  batchSize?: number;
  /**
   * An event longer than the content limit (`limits.maxContentChars`) is imported as consecutive parts that
   * each fit (split at paragraph, sentence or word boundaries) instead of rejecting the file.
   */
  chunkLong?: boolean;
  onProgress?: (p: ImportProgress) => void;
}

export async function importJsonl(memory: Memory, ctx: EventWriteContext, path: string, opts: ImportOptions = {}): Promise<ImportReport> {
  const lines = await collect(path, ctx, opts);
  const report: ImportReport = { lines: lines.length, events: 0, facts: 0, duplicates: 0 };
  const batchSize = opts.batchSize ?? 1000;
  const withTenant = (b: Record<string, unknown>) => (opts.tenant ? { ...b, tenant: opts.tenant } : b);
  let batch: Record<string, unknown>[] = [];
  let done = 0;
  const flushEvents = async () => {
    if (batch.length === 0) return;
    const written = await memory.logEvents(batch);
    for (const e of written) {
      if (e.duplicate) report.duplicates++;
      else report.events++;
    }
    done += batch.length;
    batch = [];
    opts.onProgress?.({ phase: 'write', lines: done, total: lines.length });
  };
  for (const l of lines) {
    if (l.record === 'event') {
      batch.push(withTenant(l.body));
      if (batch.length >= batchSize) await flushEvents();
      continue;
    }
    await flushEvents();
    if (l.record === 'entity' || l.record === 'relation') {
      await importGraphLine(memory, l, opts.tenant);
      opts.onProgress?.({ phase: 'write', lines: ++done, total: lines.length });
      continue;
    }
    const lineTenant = opts.tenant ?? (typeof l.body.tenant === 'string' ? l.body.tenant : ctx.defaultTenant);
    if (await isKnownVersion(memory, lineTenant, l.body)) {
      report.duplicates++;
    } else {
      // Validated in the first pass; remember() re-validates anyway.
      const r = await memory.remember(withTenant(l.body) as FactInput);
      if (r.status === 'duplicate') report.duplicates++;
      else report.facts++;
    }
    opts.onProgress?.({ phase: 'write', lines: ++done, total: lines.length });
  }
  await flushEvents();
  return report;
}

/**
 * An exported old version must not come back as a new version on re-import: a keyed fact is known when any
 * version of its key already has the same text.
 */
async function isKnownVersion(memory: Memory, tenant: string, body: Record<string, unknown>): Promise<boolean> {
  if (typeof body.key !== 'string' || typeof body.text !== 'string') return false;
  const hash = contentHash(body.text);
  const versions = await memory.factHistory(body.key, tenant);
  return versions.some((v) => v.contentHash === hash);
}

/** An exported graph record back into storage, under the import's tenant when one is given. */
async function importGraphLine(memory: Memory, l: Line, tenant: string | undefined): Promise<void> {
  const body = { ...l.body, ...(tenant ? { tenant } : {}) };
  if (l.record === 'entity') await memory.storage.putEntities([body as unknown as Entity]);
  else await memory.storage.putRelations([{ relation: body as unknown as Relation }]);
}

export type ExportLine =
  | ({ record: 'event' } & Omit<MemoryEvent, 'ts'> & { ts: string })
  | ({ record: 'fact' } & Fact)
  | ({ record: 'entity' } & Entity)
  | ({ record: 'relation' } & Relation);

/** Every live event (chronological) then every fact version of the tenant, as JSONL-ready objects. */
export async function* exportRecords(memory: Memory, tenant: string, now: number): AsyncGenerator<ExportLine> {
  let afterSeq = 0;
  for (;;) {
    const page = await memory.storage.queryEvents({ tenant, afterSeq, limit: 1000, now });
    for (const e of page) yield { record: 'event', ...e, ts: new Date(e.ts).toISOString() };
    if (page.length < 1000) break;
    afterSeq = page[page.length - 1]!.seq;
  }
  const facts = await memory.storage.listFacts({ tenant, includeExpired: true, now, limit: 1_000_000 });
  for (const f of facts) yield { record: 'fact', ...f };
  for (const e of await memory.storage.findEntities({ tenant })) yield { record: 'entity', ...e };
  for (const r of await memory.storage.queryRelations({ tenant, includeExpired: true })) yield { record: 'relation', ...r };
}
