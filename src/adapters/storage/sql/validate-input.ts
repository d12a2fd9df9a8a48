/**
 * Storage's own guard on records: the write path validates user input with zod, but a record reaching a
 * NOT NULL column as `undefined`, or a string where a number belongs, must fail as VALIDATION naming the
 * field, not as a driver error halfway through a batch.
 */
import { EngramError, type ErrorIssue } from '../../../core/errors.js';
import { SCOPE_KEYS, type Fact } from '../../../core/types.js';
import type { NewEvent } from '../../../ports/storage.js';

export type Check = (v: unknown) => boolean;

export const str: Check = (v) => typeof v === 'string';
export const nonEmpty: Check = (v) => typeof v === 'string' && v.length > 0;
export const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
export const optStr: Check = (v) => v === undefined || typeof v === 'string';
export const optNum: Check = (v) => v === undefined || num(v);
export const bool: Check = (v) => typeof v === 'boolean';
export const strArray: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
export const obj: Check = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

export const SCOPE_CHECKS: Record<string, Check> = Object.fromEntries(SCOPE_KEYS.map((k) => [k, optStr]));

const EVENT_CHECKS: Record<string, Check> = {
  id: nonEmpty,
  tenant: nonEmpty,
  ...SCOPE_CHECKS,
  ts: num,
  recordedAt: num,
  type: nonEmpty,
  actor: nonEmpty,
  name: optStr,
  content: str,
  tool: optStr,
  stateLabel: optStr,
  tags: strArray,
  importance: num,
  source: optStr,
  metadata: obj,
  contentHash: nonEmpty,
  expiresAt: optNum,
  pii: obj,
};

const FACT_CHECKS: Record<string, Check> = {
  id: nonEmpty,
  key: nonEmpty,
  tenant: nonEmpty,
  ...SCOPE_CHECKS,
  version: (v) => Number.isInteger(v) && (v as number) >= 1,
  supersedes: optStr,
  kind: nonEmpty,
  text: str,
  subject: optStr,
  predicate: optStr,
  value: optStr,
  source: optStr,
  section: optStr,
  tags: strArray,
  pii: bool,
  piiReport: obj,
  metadata: obj,
  confidence: num,
  supportCount: num,
  contradictCount: num,
  importance: num,
  validFrom: optNum,
  validTo: optNum,
  recordedAt: num,
  expiredAt: optNum,
  expiresAt: optNum,
  contentHash: nonEmpty,
  provenance: obj,
};

export function check(record: unknown, checks: Record<string, Check>, path: string, issues: ErrorIssue[]): void {
  if (!obj(record)) {
    issues.push({ path, message: 'expected an object' });
    return;
  }
  const r = record as Record<string, unknown>;
  for (const [field, ok] of Object.entries(checks)) {
    if (!ok(r[field])) issues.push({ path: `${path}.${field}`, message: `invalid ${field}` });
  }
}

export function throwIfAny(issues: ErrorIssue[], what: string): void {
  if (issues.length === 0) return;
  throw new EngramError('VALIDATION', `invalid ${what}: ${issues[0]!.path}: ${issues[0]!.message}`, { issues });
}

/** Shape of every event, then ids unique within the batch (a repeated id is a CONFLICT). */
export function assertEventBatch(events: readonly NewEvent[]): void {
  if (!Array.isArray(events)) throwIfAny([{ path: 'events', message: 'expected an array' }], 'events');
  const issues: ErrorIssue[] = [];
  events.forEach((e, i) => check(e, EVENT_CHECKS, `events.${i}`, issues));
  throwIfAny(issues, 'events');
  const firstAt = new Map<string, number>();
  events.forEach((e, i) => {
    const key = `${e.tenant}\u0000${e.id}`;
    const first = firstAt.get(key);
    if (first !== undefined) {
      throw new EngramError('CONFLICT', `events.${i}.id repeats events.${first}.id (${e.id}) in one batch`, {
        issues: [{ path: `events.${i}.id`, message: 'duplicate id in batch' }],
      });
    }
    firstAt.set(key, i);
  });
}

export function assertFact(fact: Fact): void {
  const issues: ErrorIssue[] = [];
  check(fact, FACT_CHECKS, 'fact', issues);
  throwIfAny(issues, 'fact');
}

export function assertFactStats(stats: Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount'>): void {
  const issues: ErrorIssue[] = [];
  check(stats, { confidence: num, supportCount: num, contradictCount: num }, 'stats', issues);
  throwIfAny(issues, 'stats');
}
