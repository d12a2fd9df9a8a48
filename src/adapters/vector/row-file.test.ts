import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crc32 } from './crc32.js';
import { RowFile } from './row-file.js';

const DIM = 4;
const row = (x: number) => Float32Array.of(x, x + 0.25, x + 0.5, x + 0.75);
const rowsOf = (...xs: number[]) => {
  const out = new Float32Array(xs.length * DIM);
  xs.forEach((x, i) => out.set(row(x), i * DIM));
  return out;
};

describe('RowFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-rowfile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a scratch file leaves nothing behind in its directory', () => {
    const f = new RowFile(DIM, dir);
    f.write(0, rowsOf(1, 2, 3));
    const out = new Float32Array(3 * DIM);
    f.read(0, 3, out);
    expect(out).toEqual(rowsOf(1, 2, 3));
    expect(readdirSync(dir)).toEqual([]);
    f.close();
  });

  it('reads a saved file in place and writes copy-on-write: the saved file never changes', () => {
    const base = join(dir, 'saved.f32');
    const saved = rowsOf(10, 11, 12, 13, 14);
    writeFileSync(base, new Uint8Array(saved.buffer));
    const f = new RowFile(DIM, dir, { path: base, rows: 5 });
    f.write(1, rowsOf(21)); // overwrite a saved row
    f.move(4, 2); // a removal moves the last row into a hole
    f.write(5, rowsOf(25, 26)); // append past the saved rows
    expect(f.rewritten).toBe(2);
    const out = new Float32Array(7 * DIM);
    f.read(0, 7, out);
    expect(out).toEqual(rowsOf(10, 21, 14, 13, 14, 25, 26));
    const one = new Float32Array(DIM);
    f.read(3, 1, one);
    expect(one).toEqual(row(13));
    expect(new Float32Array(Uint8Array.from(readFileSync(base)).buffer)).toEqual(saved);
    // Streamed out whole (what a save writes), with the CRC-32 of the bytes written.
    const copy = join(dir, 'copy.f32');
    const fd = openSync(copy, 'w');
    const crc = f.copyTo(fd, 7);
    closeSync(fd);
    expect(new Float32Array(Uint8Array.from(readFileSync(copy)).buffer)).toEqual(out);
    expect(crc).toBe(crc32(readFileSync(copy)));
    f.close();
  });

  it('refuses a saved file shorter than the rows it should hold', () => {
    const base = join(dir, 'short.f32');
    writeFileSync(base, new Uint8Array(rowsOf(1, 2).buffer));
    expect(() => new RowFile(DIM, dir, { path: base, rows: 3 })).toThrow(/shorter/);
  });
});
