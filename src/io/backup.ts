/**
 * Lossless backup and restore of one tenant (format: backup-format.ts). Export streams page by page from
 * storage (never the whole tenant in memory). Import reads the file twice: the first pass validates every
 * line (JSON, schema, kind order, the closing counts) and writes nothing if any is wrong; the second restores
 * batches of one kind, each batch in one storage transaction. Restoring is idempotent: a record already stored
 * under its id is left as it is, so importing the same file again writes nothing, and an import cut short can
 * be run again.
 *
 * Restored records are not scrubbed, segmented or extracted again: they are the store's own records, written
 * through the write path when they were first stored. Docs and index entries are projected again and vectors
 * are computed again by the embedding backlog; API keys are never exported (credentials are issued again).
 */
import { EngramError, type ErrorIssue } from '../core/errors.js';
import type { BackupKind, BackupRecordKinds, RestoreReport, Storage } from '../ports/storage.js';
import { readLines } from './jsonl.js';
import { BACKUP_FORMAT, BACKUP_KINDS, BACKUP_VERSION, EndSchema, HeaderSchema, isBackupKind, recordSchema, type BackupHeader, type BackupLine } from './backup-format.js';

const PAGE = 500;
const MAX_ISSUES = 50;

/** The header, every record of every kind, then the closing counts. */
export async function* exportBackup(storage: Storage, tenant: string, now: number): AsyncGenerator<BackupLine> {
  yield { kind: 'header', format: BACKUP_FORMAT, version: BACKUP_VERSION, tenant, exported_at: new Date(now).toISOString(), kinds: [...BACKUP_KINDS] };
  const counts: Record<string, number> = {};
  for (const kind of BACKUP_KINDS) {
    counts[kind] = 0;
    let after: string | undefined;
    do {
      const page = await storage.listBackupPage(kind, tenant, after, PAGE);
      for (const rec of page.records) {
        const { tenant: _own, ...record } = rec as { tenant: string };
        counts[kind]++;
        yield { kind, record } as BackupLine;
      }
      after = page.next;
    } while (after !== undefined);
  }
  yield { kind: 'end', counts };
}

export interface RestoreProgress {
  phase: 'validate' | 'write';
  lines: number;
  total: number;
}

export interface RestoreOptions {
  /** The tenant to restore into (default: the header's). */
  tenant?: string | undefined;
  onProgress?: ((p: RestoreProgress) => void) | undefined;
}

export interface BackupImportReport {
  tenant: string;
  lines: number;
  /** Per kind: written, already there unchanged (`existing`), or there with other content and kept (`kept`). */
  records: Record<BackupKind, RestoreReport>;
}

type Parsed = { line: number } & ({ kind: 'header'; header: BackupHeader } | { kind: BackupKind; record: Record<string, unknown> } | { kind: 'end'; counts: Record<string, number> });

function lineError(line: number, path: string, message: string): EngramError {
  const at = path ? `line ${line}.${path}` : `line ${line}`;
  return new EngramError('VALIDATION', `${at}: ${message}`, { issues: [{ path: at, message }] });
}

function zodIssues(line: number, prefix: string, error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): ErrorIssue[] {
  return error.issues.map((i) => ({ path: [`line ${line}`, prefix, ...i.path.map(String)].filter(Boolean).join('.'), message: i.message }));
}

/** One line, parsed and checked on its own (order and counts are the file's, checked by `validate`). */
function parseLine(text: string, line: number): Parsed {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw lineError(line, '', `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw lineError(line, '', 'expected a JSON object');
  const kind = (raw as { kind?: unknown }).kind;
  if (kind === 'header') {
    const h = HeaderSchema.safeParse(raw);
    if (!h.success) throw new EngramError('VALIDATION', `line ${line}: not a backup header`, { issues: zodIssues(line, '', h.error) });
    if (h.data.version > BACKUP_VERSION) throw lineError(line, 'version', `backup format version ${h.data.version} is newer than this Engram reads (${BACKUP_VERSION})`);
    return { line, kind: 'header', header: h.data };
  }
  if (kind === 'end') {
    const e = EndSchema.safeParse(raw);
    if (!e.success) throw new EngramError('VALIDATION', `line ${line}: bad closing line`, { issues: zodIssues(line, '', e.error) });
    return { line, kind: 'end', counts: e.data.counts };
  }
  if (!isBackupKind(kind)) throw lineError(line, 'kind', `unknown record kind ${JSON.stringify(kind)}`);
  const keys = Object.keys(raw);
  if (keys.length !== 2 || !keys.includes('record')) throw lineError(line, '', 'a record line is {"kind":…,"record":{…}}');
  const r = recordSchema(kind).safeParse((raw as { record: unknown }).record);
  if (!r.success) throw new EngramError('VALIDATION', `line ${line}: invalid ${kind} record`, { issues: zodIssues(line, 'record', r.error) });
  return { line, kind, record: r.data as Record<string, unknown> };
}

/** Is this file a backup (its first non-empty line a backup header)? Other JSONL is ingested as new records. */
export async function isBackupFile(path: string): Promise<boolean> {
  for await (const { text } of readLines(path)) {
    try {
      const first = JSON.parse(text) as { kind?: unknown; format?: unknown };
      return first.kind === 'header' && first.format === BACKUP_FORMAT;
    } catch {
      return false;
    }
  }
  return false;
}

/** First pass: every line checked; returns the header and the number of record lines, or throws every issue (up to 50). */
async function validate(path: string, onProgress?: (p: RestoreProgress) => void): Promise<{ header: BackupHeader; records: number }> {
  const issues: ErrorIssue[] = [];
  const add = (e: unknown, line: number) => {
    const found = e instanceof EngramError ? e.issues : [];
    issues.push(...(found.length ? found : [{ path: `line ${line}`, message: e instanceof Error ? e.message : String(e) }]));
  };
  let header: BackupHeader | undefined;
  let end: { line: number; counts: Record<string, number> } | undefined;
  let order = 0;
  let lastLine = 0;
  const counts: Record<string, number> = {};
  for await (const { text, line } of readLines(path)) {
    lastLine = line;
    try {
      const p = parseLine(text, line);
      if (end) throw lineError(line, '', `nothing may follow the closing line (line ${end.line})`);
      if (p.kind === 'header') {
        if (header) throw lineError(line, '', 'a second header');
        header = p.header;
      } else if (!header) {
        throw lineError(line, '', 'the first line must be the backup header');
      } else if (p.kind === 'end') {
        end = { line, counts: p.counts };
      } else {
        const at = BACKUP_KINDS.indexOf(p.kind);
        if (at < order) throw lineError(line, 'kind', `${p.kind} records must come before ${BACKUP_KINDS[order]} records`);
        order = at;
        counts[p.kind] = (counts[p.kind] ?? 0) + 1;
      }
    } catch (e) {
      add(e, line);
      if (issues.length >= MAX_ISSUES) break;
    }
    if (line % 1000 === 0) onProgress?.({ phase: 'validate', lines: line, total: 0 });
  }
  if (issues.length < MAX_ISSUES) {
    if (!header) issues.push({ path: 'line 1', message: 'the file is empty or has no backup header' });
    else if (!end) issues.push({ path: `line ${lastLine + 1}`, message: 'no closing line: the file was cut short' });
    else {
      for (const kind of new Set([...Object.keys(end.counts), ...Object.keys(counts)])) {
        if ((end.counts[kind] ?? 0) !== (counts[kind] ?? 0)) {
          issues.push({ path: `line ${end.line}.counts.${kind}`, message: `says ${end.counts[kind] ?? 0}, the file holds ${counts[kind] ?? 0}` });
        }
      }
    }
  }
  if (issues.length) throw new EngramError('VALIDATION', `import rejected, nothing written: ${issues[0]!.path}: ${issues[0]!.message}`, { issues });
  return { header: header!, records: Object.values(counts).reduce((a, b) => a + b, 0) };
}

/** Validates the whole file, then restores it batch by batch (each batch one transaction). */
export async function importBackup(storage: Storage, path: string, opts: RestoreOptions = {}): Promise<BackupImportReport> {
  const { header, records: total } = await validate(path, opts.onProgress);
  const tenant = opts.tenant ?? header.tenant;
  const records = Object.fromEntries(BACKUP_KINDS.map((k) => [k, { written: 0, existing: 0, kept: 0 }])) as Record<BackupKind, RestoreReport>;
  let batch: BackupRecordKinds[BackupKind][] = [];
  let batchKind: BackupKind | undefined;
  let done = 0;
  const flush = async () => {
    if (!batchKind || batch.length === 0) return;
    const r = await storage.restoreRecords(batchKind, batch);
    const sum = records[batchKind];
    sum.written += r.written;
    sum.existing += r.existing;
    sum.kept += r.kept;
    done += batch.length;
    batch = [];
    opts.onProgress?.({ phase: 'write', lines: done, total });
  };
  for await (const { text, line } of readLines(path)) {
    const p = parseLine(text, line);
    if (p.kind === 'header' || p.kind === 'end') continue;
    if (p.kind !== batchKind || batch.length >= PAGE) await flush();
    batchKind = p.kind;
    batch.push({ ...p.record, tenant } as BackupRecordKinds[BackupKind]);
  }
  await flush();
  return { tenant, lines: total + 2, records };
}
