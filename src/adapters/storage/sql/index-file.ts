/**
 * Persisted search indexes (derived state saved beside the store so a process start loads them instead of
 * rebuilding). One file holds named binary sections behind a small JSON header:
 *
 *   "ENGRIDX\n" | u32 header length | header JSON | sections, back to back
 *
 * The header names the format version, what the file describes (`describes`: engine, tenant, model, …; a file
 * describing something else is not used), the change-feed position the contents cover (`covers`), each
 * section's length and the CRC-32 of all sections. A file is written to a temporary name, synced and renamed
 * over the old one, so a crash leaves either the old file or the new one, never half of one. Reading checks
 * everything and reports why a file cannot be used instead of throwing, so the caller rebuilds from the rows.
 * Each section is read into its own buffer (typed arrays over it start at offset 0, which native scans need).
 */
import { EngramError } from '../../../core/errors.js';
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from '../../vector/crc32.js';

const MAGIC = Buffer.from('ENGRIDX\n', 'latin1');
/** Bump when a section's layout changes: older files are then rebuilt. */
export const INDEX_FILE_VERSION = 2;

export type IndexFileFault = 'missing' | 'truncated' | 'corrupt' | 'version' | 'mismatch';

/** What happened when a tenant's index was opened or saved (for logs and tests). */
export type IndexEvent =
  | { kind: 'loaded'; index: string; tenant: string; from: 'file'; covers: number; caughtUp: number; ms: number }
  | { kind: 'loaded'; index: string; tenant: string; from: 'rows'; fault: IndexFileFault | 'stale' | 'disabled'; detail?: string; ms: number }
  | { kind: 'saved'; index: string; tenant: string; covers: number; bytes: number; ms: number }
  | { kind: 'save-failed'; index: string; tenant: string; error: string }
  /** The side files of a file loaded in place passed their background check (ms since the load started). */
  | { kind: 'checked'; index: string; tenant: string; ms: number }
  /** A file loaded in place failed its background check: the structure is dropped and rebuilt from the rows. */
  | { kind: 'check-failed'; index: string; tenant: string; fault: IndexFileFault; detail: string };

export interface IndexFileHeader {
  version: number;
  /** What the file is of; compared key by key with what the reader expects. */
  describes: Record<string, string | number>;
  /** The change-feed position (SQLite: doc_changes seq; PostgreSQL: the tenant's epoch) the contents include. */
  covers: number;
  /** Extra numbers a section's decoder needs (counts, flags). */
  info: Record<string, number>;
  sections: { name: string; bytes: number }[];
  /** CRC-32 of every section with its padding, in order. */
  crc32: number;
}

export type IndexFileRead =
  | { ok: true; header: IndexFileHeader; sections: Map<string, Buffer> }
  | { ok: false; fault: IndexFileFault; detail: string };

/** A section as bytes: typed arrays are written as their raw bytes (little-endian on every supported host). */
export type Section = ArrayBufferView;

/** Bytes that bring `n` to the next multiple of 8. */
const pad8 = (n: number): number => (8 - (n % 8)) % 8;

const bytesOf = (s: Section): Buffer => Buffer.from(s.buffer, s.byteOffset, s.byteLength);

/** Writes the file atomically (temporary file, fsync, rename). Creates the directory when needed. */
export function writeIndexFile(
  path: string,
  meta: { describes: IndexFileHeader['describes']; covers: number; info?: Record<string, number> },
  sections: Record<string, Section>,
): number {
  const parts = Object.entries(sections).map(([name, s]) => ({ name, data: bytesOf(s) }));
  let crc = 0;
  for (const p of parts) crc = crc32(Buffer.alloc(pad8(p.data.byteLength)), crc32(p.data, crc));
  const header: IndexFileHeader = {
    version: INDEX_FILE_VERSION,
    describes: meta.describes,
    covers: meta.covers,
    info: meta.info ?? {},
    sections: parts.map((p) => ({ name: p.name, bytes: p.data.byteLength })),
    crc32: crc,
  };
  // Sections start at multiples of 8 bytes, so a reader can view them as typed arrays without copying.
  let head = Buffer.from(JSON.stringify(header), 'utf8');
  head = Buffer.concat([head, Buffer.alloc(pad8(MAGIC.byteLength + 4 + head.byteLength), 0x20)]);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.byteLength);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  let total = 0;
  try {
    for (const b of [MAGIC, len, head]) total += writeAll(fd, b);
    for (const p of parts) total += writeAll(fd, p.data) + writeAll(fd, Buffer.alloc(pad8(p.data.byteLength)));
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
  return total;
}

function writeAll(fd: number, b: Buffer): number {
  let off = 0;
  while (off < b.byteLength) off += writeSync(fd, b, off, b.byteLength - off);
  return off;
}

/** Reads and checks a file; `expect` must match the header's `describes` for the file to be used. */
export function readIndexFile(path: string, expect: IndexFileHeader['describes']): IndexFileRead {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, fault: 'missing', detail: path };
    return { ok: false, fault: 'corrupt', detail: (e as Error).message };
  }
  try {
    return readOpen(fd, expect);
  } catch (e) {
    return { ok: false, fault: 'corrupt', detail: (e as Error).message };
  } finally {
    closeSync(fd);
  }
}

function readOpen(fd: number, expect: IndexFileHeader['describes']): IndexFileRead {
  const size = fstatSync(fd).size;
  const lead = MAGIC.byteLength + 4;
  if (size < lead) return { ok: false, fault: 'truncated', detail: `${size} bytes` };
  const first = readAt(fd, 0, lead);
  if (!first.subarray(0, MAGIC.byteLength).equals(MAGIC)) return { ok: false, fault: 'corrupt', detail: 'not an index file' };
  const headLen = first.readUInt32LE(MAGIC.byteLength);
  const start = lead + headLen;
  if (start > size) return { ok: false, fault: 'truncated', detail: 'header cut short' };
  let header: IndexFileHeader;
  try {
    header = JSON.parse(readAt(fd, lead, headLen).toString('utf8')) as IndexFileHeader;
  } catch {
    return { ok: false, fault: 'corrupt', detail: 'header is not JSON' };
  }
  if (header.version !== INDEX_FILE_VERSION) return { ok: false, fault: 'version', detail: `format ${header.version}, reader ${INDEX_FILE_VERSION}` };
  for (const [k, v] of Object.entries(expect)) {
    if (header.describes?.[k] !== v) return { ok: false, fault: 'mismatch', detail: `${k}: ${String(header.describes?.[k])}, expected ${String(v)}` };
  }
  const body = header.sections.reduce((n, s) => n + s.bytes + pad8(s.bytes), 0);
  if (size - start < body) return { ok: false, fault: 'truncated', detail: `${size - start} of ${body} section bytes` };
  if (size - start > body) return { ok: false, fault: 'corrupt', detail: 'trailing bytes' };
  const sections = new Map<string, Buffer>();
  let crc = 0;
  let off = start;
  for (const s of header.sections) {
    const padded = s.bytes + pad8(s.bytes);
    const b = readAt(fd, off, padded);
    crc = crc32(b, crc);
    sections.set(s.name, b.subarray(0, s.bytes));
    off += padded;
  }
  if (crc !== header.crc32) return { ok: false, fault: 'corrupt', detail: 'checksum mismatch' };
  return { ok: true, header, sections };
}

/** `len` bytes at `at`, in a buffer of their own (offset 0 of a fresh ArrayBuffer). */
function readAt(fd: number, at: number, len: number): Buffer {
  const b = Buffer.from(new ArrayBuffer(len));
  let done = 0;
  while (done < len) {
    const n = readSync(fd, b, done, len - done, at + done);
    if (n === 0) throw new EngramError('ADAPTER', 'index file: cut short while reading');
    done += n;
  }
  return b;
}

/** A section's bytes as a typed array: a view into the file's buffer when aligned (sections are), else a copy. */
export function sectionAs<T extends Float64Array | Float32Array | Int32Array | Uint8Array | Uint16Array | Int8Array>(
  sections: Map<string, Buffer>,
  name: string,
  Type: { new (buffer: ArrayBuffer, byteOffset?: number, length?: number): T; BYTES_PER_ELEMENT: number },
): T {
  const b = sections.get(name);
  if (!b) throw new EngramError('ADAPTER', `index file: section ${name} missing`);
  const size = Type.BYTES_PER_ELEMENT;
  if (b.byteLength % size !== 0) throw new EngramError('ADAPTER', `index file: section ${name} has a partial element`);
  if (b.byteOffset % size === 0) return new Type(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength / size);
  const copy = new ArrayBuffer(b.byteLength);
  new Uint8Array(copy).set(b);
  return new Type(copy);
}

/** Strings as one UTF-8 section (JSON array). */
export const stringsSection = (strings: readonly string[]): Uint8Array => Buffer.from(JSON.stringify(strings), 'utf8');
export function sectionStrings(sections: Map<string, Buffer>, name: string): string[] {
  const b = sections.get(name);
  if (!b) throw new EngramError('ADAPTER', `index file: section ${name} missing`);
  const v: unknown = JSON.parse(b.toString('utf8'));
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new EngramError('ADAPTER', `index file: section ${name} is not a string list`);
  return v as string[];
}

/** File-name-safe form of a tenant id (hex of its UTF-8 bytes when it has other characters). */
export function tenantFileName(tenant: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(tenant) ? `t-${tenant}` : `h-${createHash('sha256').update(tenant).digest('hex').slice(0, 40)}`;
}
