import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crc32, fileCrc32, fileCrc32Sync } from './crc32.js';

describe('crc32', () => {
  it('is zlib CRC-32, chains across pieces, and an empty piece (even over an empty buffer) changes nothing', () => {
    expect(crc32(Buffer.from('hello world'))).toBe(0x0d4a1185);
    const chained = crc32(Buffer.from('world'), crc32(Buffer.from('hello ')));
    expect(chained).toBe(0x0d4a1185);
    expect(crc32(new Uint8Array(new Float64Array(0).buffer), chained)).toBe(chained);
  });

  it('of a file, in steps (async and sync), equals that of its bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-crc-'));
    try {
      const bytes = new Uint8Array((9 << 20) + 123).map((_, i) => (i * 31) & 0xff);
      writeFileSync(join(dir, 'f'), bytes);
      expect(await fileCrc32(join(dir, 'f'))).toBe(crc32(bytes));
      expect(fileCrc32Sync(join(dir, 'f'))).toBe(crc32(bytes));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
