import { closeSync, fstatSync, mkdirSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { adapterError } from '../../core/errors.js';
import { crc32 } from './crc32.js';

/** Closes files whose owner was collected without `close()` (an index dropped with its tenant). */
const orphans = new FinalizationRegistry<{ fds: number[]; path: string | null }>((f) => {
  try {
    for (const fd of f.fds) closeSync(fd);
    if (f.path) rmSync(f.path, { force: true });
  } catch {
    // nothing left to do
  }
});

/** Rows copied per read when a whole file is streamed (4 MB at 512-d). */
const CHUNK_ROWS = 2048;

/**
 * Full-precision (f32) vectors kept on disk instead of in memory: row `r` of `dimension` floats at byte
 * `r · dimension · 4`. Writes go to a private scratch file, unlinked as soon as it is open (POSIX), so it never
 * outlives the process; what is read often stays in the OS page cache, outside the process's RSS.
 *
 * A row file can start from a saved one (`base`, rows [0, baseRows)): the saved file is opened read-only and
 * used in place, never copied; a row written later goes to the scratch file at the same offset (sparse) and is
 * read from there from then on (copy-on-write), so the saved file keeps exactly what it was saved with.
 * Reads and writes are positional (pread / pwrite), synchronous like the in-memory matrix they stand in for.
 */
export class RowFile {
  private fd: number;
  private baseFd = -1;
  private readonly baseRows: number;
  /** Per base row: 1 once the row was rewritten (it is then read from the scratch file). */
  private readonly overridden: Uint8Array;
  private overrides = 0;
  /** Set when the file could not be unlinked while open (Windows); removed on close. */
  private readonly path: string | null;
  private readonly rowBytes: number;
  private readonly token = {};

  constructor(
    readonly dimension: number,
    dir: string = tmpdir(),
    base?: { path: string; rows: number },
  ) {
    this.rowBytes = dimension * 4;
    mkdirSync(dir, { recursive: true });
    if (base) {
      try {
        this.baseFd = openSync(base.path, 'r');
      } catch (e) {
        throw adapterError(`cannot open the vector row file ${base.path}`, e);
      }
      const size = fstatSync(this.baseFd).size;
      if (size < base.rows * this.rowBytes) {
        closeSync(this.baseFd);
        throw adapterError('vector row file is shorter than expected', new Error(`${size} bytes for ${base.rows} rows`));
      }
    }
    this.baseRows = base?.rows ?? 0;
    this.overridden = new Uint8Array(this.baseRows);
    const path = join(dir, `engram-f32-${process.pid}-${randomUUID()}.rows`);
    try {
      this.fd = openSync(path, 'w+', 0o600);
    } catch (e) {
      if (this.baseFd >= 0) closeSync(this.baseFd);
      throw adapterError(`cannot create the vector row file in ${dir}`, e);
    }
    let kept: string | null = null;
    try {
      unlinkSync(path);
    } catch {
      kept = path;
    }
    this.path = kept;
    orphans.register(this, { fds: this.baseFd >= 0 ? [this.fd, this.baseFd] : [this.fd], path: kept }, this.token);
  }

  /** Base rows rewritten since the file was opened (they are read from the scratch file). */
  get rewritten(): number {
    return this.overrides;
  }

  /** Writes `rows` (row-major, whole rows) starting at row `first`. */
  write(first: number, rows: Float32Array): void {
    const bytes = new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength);
    let done = 0;
    const at = first * this.rowBytes;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, at + done);
    const last = Math.min(this.baseRows, first + rows.length / this.dimension);
    for (let r = first; r < last; r++) {
      if (this.overridden[r] === 0) {
        this.overridden[r] = 1;
        this.overrides++;
      }
    }
  }

  /** Reads `count` rows starting at row `first` into `out` at row offset `outRow`. */
  read(first: number, count: number, out: Float32Array, outRow = 0): void {
    let r = first;
    const end = first + count;
    while (r < end) {
      // The longest run of rows from one file.
      const fromBase = r < this.baseRows && this.overridden[r] === 0;
      let run = r + 1;
      while (run < end && (run < this.baseRows && this.overridden[run] === 0) === fromBase) run++;
      this.readRun(fromBase ? this.baseFd : this.fd, r, run - r, out, outRow + (r - first));
      r = run;
    }
  }

  /** Copies row `from` over row `to`. */
  move(from: number, to: number): void {
    const row = new Float32Array(this.dimension);
    this.read(from, 1, row);
    this.write(to, row);
  }

  /**
   * Writes rows [0, count) to the open file `fd` from its start, a chunk at a time (never the whole set in
   * memory); returns their CRC-32.
   */
  copyTo(fd: number, count: number): number {
    const chunk = new Float32Array(Math.min(CHUNK_ROWS, Math.max(1, count)) * this.dimension);
    let crc = 0;
    let at = 0;
    for (let r = 0; r < count; r += CHUNK_ROWS) {
      const n = Math.min(CHUNK_ROWS, count - r);
      const rows = chunk.subarray(0, n * this.dimension);
      this.read(r, n, rows);
      const bytes = new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength);
      crc = crc32(bytes, crc);
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
      at += bytes.length;
    }
    return crc;
  }

  close(): void {
    if (this.fd < 0) return;
    orphans.unregister(this.token);
    closeSync(this.fd);
    if (this.baseFd >= 0) closeSync(this.baseFd);
    this.fd = -1;
    this.baseFd = -1;
    if (this.path) rmSync(this.path, { force: true });
  }

  private readRun(fd: number, first: number, count: number, out: Float32Array, outRow: number): void {
    const len = count * this.rowBytes;
    const bytes = new Uint8Array(out.buffer, out.byteOffset + outRow * this.rowBytes, len);
    let done = 0;
    const at = first * this.rowBytes;
    while (done < len) {
      const n = readSync(fd, bytes, done, len - done, at + done);
      if (n === 0) throw adapterError('vector row file is shorter than expected', new Error(`row ${first + count - 1} missing`));
      done += n;
    }
  }
}
