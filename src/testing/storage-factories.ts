/**
 * Small factories for storage tests: records with random-but-valid fields, seeded so a failure
 * reproduces, and random unit vectors of a small dimension (storage does not care what they mean).
 */
import { ACTORS, EVENT_TYPES, type Fact, type JsonObject } from '../core/types.js';
import { newId } from '../core/ids.js';
import { contentHash } from '../core/text.js';
import type { NewEvent } from '../ports/storage.js';
import { seededRng } from './rng.js';

export const TEST_MODEL = 'conformance-embedder-v1';
export const TEST_DIM = 8;
/** A fixed "now" well after every factory timestamp, so nothing is expired unless a test says so. */
export const NOW = Date.UTC(2030, 0, 1);
export type Rng = () => number;

/** mulberry32 (src/testing/rng.ts): tiny, fast, good enough to pick test data. */
export { seededRng };

let shared = seededRng(20250101);
/** Re-seeds the default generator (call in beforeEach for reproducible tests). */
export function reseed(seed: number): void {
  shared = seededRng(seed);
}

/** The default generator as currently seeded (for factories in other files). */
export const sharedRng = (): Rng => shared;

export const BASE_TS = Date.UTC(2025, 0, 1);

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const WORDS = [
  'deploy', 'rollback', 'invoice', 'database', 'migration', 'customer', 'refund', 'latency', 'cache', 'timeout',
  'garden', 'tomato', 'violin', 'harbor', 'lantern', 'meadow', 'glacier', 'pepper', 'compass', 'orchard',
];
const TAGS = ['ops', 'billing', 'prod', 'staging', 'urgent', 'followup'];

export function sentence(r: Rng = shared, words = 6): string {
  return Array.from({ length: words }, () => pick(r, WORDS)).join(' ');
}

function randomTags(r: Rng): string[] {
  return TAGS.filter(() => r() < 0.3);
}

function randomMetadata(r: Rng): JsonObject {
  const m: JsonObject = {};
  if (r() < 0.5) m.priority = Math.floor(r() * 5);
  if (r() < 0.5) m.channel = pick(r, ['email', 'chat', 'phone']);
  if (r() < 0.3) m.flags = { reviewed: r() < 0.5 };
  return m;
}

/** A valid event for `tenant`; overrides win. `contentHash` follows `content` unless overridden. */
export function makeEvent(overrides: Partial<NewEvent> = {}, r: Rng = shared): NewEvent {
  const content = overrides.content ?? sentence(r);
  const ts = BASE_TS + Math.floor(r() * 1e9);
  return {
    id: newId('event'),
    tenant: 'tenant-a',
    ts,
    recordedAt: ts + 5,
    type: pick(r, EVENT_TYPES),
    actor: pick(r, ACTORS),
    content,
    tags: randomTags(r),
    importance: Math.round(r() * 100) / 100,
    metadata: randomMetadata(r),
    contentHash: contentHash(content),
    pii: { scrubbed: false, counts: {} },
    ...overrides,
  };
}

let lastLiveTs = 0;
/**
 * A wall-clock event time, strictly increasing within the process: events given it are the newest by `ts` as
 * they are written (windows order by event time, so tests about "the latest write" need it).
 */
export function liveTs(): number {
  lastLiveTs = Math.max(Date.now(), lastLiveTs + 1);
  return lastLiveTs;
}

/** Events with increasing ts, as a conversation would log them. */
export function makeEvents(n: number, overrides: Partial<NewEvent> = {}, r: Rng = shared): NewEvent[] {
  const start = BASE_TS + Math.floor(r() * 1e6);
  return Array.from({ length: n }, (_, i) => makeEvent({ ts: start + i * 1000, recordedAt: start + i * 1000 + 1, ...overrides }, r));
}

/** A valid first version of a fact (key = id); overrides win. */
export function makeFact(overrides: Partial<Fact> = {}, r: Rng = shared): Fact {
  const id = overrides.id ?? newId('fact');
  const text = overrides.text ?? sentence(r, 8);
  const recordedAt = BASE_TS + Math.floor(r() * 1e9);
  return {
    id,
    key: id,
    version: 1,
    tenant: 'tenant-a',
    kind: pick(r, ['fact', 'preference', 'heuristic'] as const),
    text,
    tags: randomTags(r),
    pii: false,
    piiReport: { scrubbed: false, counts: {} },
    metadata: randomMetadata(r),
    confidence: 0.5 + Math.round(r() * 50) / 100,
    supportCount: 0,
    contradictCount: 0,
    importance: Math.round(r() * 100) / 100,
    validFrom: recordedAt,
    recordedAt,
    contentHash: contentHash(text),
    provenance: { origin: 'user' },
    ...overrides,
  };
}

/** The next version of `prev` with new text (a revision as the write path builds it). */
export function reviseFact(prev: Fact, text: string, overrides: Partial<Fact> = {}): Fact {
  return makeFact({
    tenant: prev.tenant,
    userId: prev.userId,
    agentId: prev.agentId,
    sessionId: prev.sessionId,
    taskId: prev.taskId,
    key: prev.key,
    version: prev.version + 1,
    supersedes: prev.id,
    kind: prev.kind,
    text,
    contentHash: contentHash(text),
    recordedAt: prev.recordedAt + 1000,
    validFrom: prev.recordedAt + 1000,
    ...overrides,
  });
}

export function unitVector(dim = TEST_DIM, r: Rng = shared): Float32Array {
  const v = new Float32Array(dim);
  let norm = 0;
  // Box-Muller normals give directions uniform on the sphere.
  for (let i = 0; i < dim; i++) {
    const x = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    v[i] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dim; i++) v[i] = v[i]! / norm;
  return v;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}
