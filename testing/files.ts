/** File helpers for tests that search what a store left on disk. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir`, at any depth (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** The bytes of every file below `dir`, one after another. */
export function bytesUnder(dir: string): Buffer {
  return Buffer.concat(filesUnder(dir).map((f) => readFileSync(f)));
}
