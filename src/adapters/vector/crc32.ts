import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import * as zlib from 'node:zlib';

/**
 * CRC-32 (zlib's) of `data`, continuing from `prev`. Index files are checked with it rather than a
 * cryptographic hash: it catches the damage a disk or a cut-short copy does, at several GB/s (zlib.crc32,
 * Node ≥ 20.15; a table-driven fallback elsewhere), where SHA-256 made opening a large index take seconds.
 */
export const crc32: (data: Uint8Array, prev?: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === 'function'
    ? // An empty view over an empty ArrayBuffer makes zlib.crc32 return 0 instead of `prev` (Node 20.20).
      (data, prev = 0) => (data.byteLength === 0 ? prev : (zlib as unknown as { crc32(d: Uint8Array, v: number): number }).crc32(data, prev))
    : tableCrc32;

let table: Int32Array | undefined;
function tableCrc32(data: Uint8Array, prev = 0): number {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = ~prev;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** Bytes read per step of `fileCrc32` (the hashing between reads stays a few ms). */
const STEP = 8 << 20;

/** The CRC-32 of a file, computed in a worker thread (sync reads and zlib.crc32; plain JS, no imports of ours). */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const { crc32 } = require('node:zlib');
try {
  const fd = openSync(workerData, 'r');
  const buf = new Uint8Array(${STEP});
  let crc = 0, at = 0;
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n === 0) break;
    crc = crc32(buf.subarray(0, n), crc);
    at += n;
  }
  closeSync(fd);
  parentPort.postMessage({ crc });
} catch (e) {
  parentPort.postMessage({ error: String(e && e.message || e) });
}`;

/**
 * CRC-32 of a whole file, in the background: in a worker thread where zlib.crc32 exists (a busy event loop
 * does not slow it down), else read a step at a time with the event loop free between steps.
 */
export async function fileCrc32(path: string): Promise<number> {
  if (typeof (zlib as { crc32?: unknown }).crc32 === 'function') return workerCrc32(path);
  const f = await open(path, 'r');
  try {
    const buf = new Uint8Array(STEP);
    let crc = 0;
    let at = 0;
    for (;;) {
      const { bytesRead } = await f.read(buf, 0, STEP, at);
      if (bytesRead === 0) return crc;
      crc = crc32(buf.subarray(0, bytesRead), crc);
      at += bytesRead;
    }
  } finally {
    await f.close();
  }
}

function workerCrc32(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { eval: true, workerData: path });
    w.unref();
    w.once('message', (m: { crc?: number; error?: string }) => {
      void w.terminate();
      if (m.error !== undefined) reject(new Error(m.error));
      else resolve(m.crc!);
    });
    w.once('error', reject);
  });
}

/** `fileCrc32`, synchronously (a save, already off the request path, names a file it just wrote by it). */
export function fileCrc32Sync(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const buf = new Uint8Array(STEP);
    let crc = 0;
    let at = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, STEP, at);
      if (n === 0) return crc;
      crc = crc32(buf.subarray(0, n), crc);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
}
