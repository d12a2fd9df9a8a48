import { closeSync, mkdirSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { adapterError } from '../../core/errors.js';

/** Closes a file whose owner was collected without `close()` (an index dropped with its tenant). */
const orphans = new FinalizationRegistry<{ fd: number; path: string | null }>((f) => {
  try {
    closeSync(f.fd);
    if (f.path) rmSync(f.path, { force: true });
  } catch {
    // nothing left to do
  }
});

/**
 * Full-precision (f32) vectors kept on disk instead of in memory: row `r` of `dimension` floats at byte
 * `r · dimension · 4` of a private scratch file. The file is unlinked as soon as it is open (POSIX), so it
 * never outlives the process; what is read often stays in the OS page cache, outside the process's RSS.
 * Reads and writes are positional (pread / pwrite), synchronous like the in-memory matrix they stand in for.
 */
export class RowFile {
  private fd: number;
  /** Set when the file could not be unlinked while open (Windows); removed on close. */
  private readonly path: string | null;
  private readonly rowBytes: number;
  private readonly token = {};

  constructor(
    readonly dimension: number,
    dir: string = tmpdir(),
  ) {
    this.rowBytes = dimension * 4;
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `engram-f32-${process.pid}-${randomUUID()}.rows`);
    try {
      this.fd = openSync(path, 'w+', 0o600);
    } catch (e) {
      throw adapterError(`cannot create the vector row file in ${dir}`, e);
    }
    let kept: string | null = null;
    try {
      unlinkSync(path);
    } catch {
      kept = path;
    }
    this.path = kept;
    orphans.register(this, { fd: this.fd, path: kept }, this.token);
  }

  /** Writes `rows` (row-major, whole rows) starting at row `first`. */
  write(first: number, rows: Float32Array): void {
    const bytes = new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength);
    let done = 0;
    const at = first * this.rowBytes;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, at + done);
  }

  /** Reads `count` rows starting at row `first` into `out` at row offset `outRow`. */
  read(first: number, count: number, out: Float32Array, outRow = 0): void {
    const len = count * this.rowBytes;
    const bytes = new Uint8Array(out.buffer, out.byteOffset + outRow * this.rowBytes, len);
    let done = 0;
    const at = first * this.rowBytes;
    while (done < len) {
      const n = readSync(this.fd, bytes, done, len - done, at + done);
      if (n === 0) throw adapterError('vector row file is shorter than expected', new Error(`row ${first + count - 1} missing`));
      done += n;
    }
  }

  /** Copies row `from` over row `to`. */
  move(from: number, to: number): void {
    const row = new Float32Array(this.dimension);
    this.read(from, 1, row);
    this.write(to, row);
  }

  close(): void {
    if (this.fd < 0) return;
    orphans.unregister(this.token);
    closeSync(this.fd);
    this.fd = -1;
    if (this.path) rmSync(this.path, { force: true });
  }
}
