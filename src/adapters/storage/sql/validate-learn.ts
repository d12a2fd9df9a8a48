/**
 * Storage's own guard on the learn records (see `validate-input.ts` for why storage checks at all): a bad
 * field fails as VALIDATION naming its path, before anything is written.
 */
import type { ErrorIssue } from '../../../core/errors.js';
import {
  LINK_TYPES,
  OUTCOMES,
  type ApiKeyRecord,
  type Episode,
  type Example,
  type FactEvidence,
  type Link,
  type Procedure,
  type WorkingMemoryRecord,
} from '../../../core/types.js';
import { bool, check, nonEmpty, num, obj, optNum, optStr, SCOPE_CHECKS, str, strArray, throwIfAny, type Check } from './validate-input.js';

const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const int: Check = (v) => Number.isSafeInteger(v);
const count: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;

const EPISODE_CHECKS: Record<string, Check> = {
  id: nonEmpty,
  tenant: nonEmpty,
  ...SCOPE_CHECKS,
  streamKey: nonEmpty,
  startSeq: int,
  endSeq: int,
  startTs: num,
  endTs: num,
  eventIds: strArray,
  stateLabel: optStr,
  summary: str,
  outcome: oneOf(OUTCOMES),
  outcomeDetails: optStr,
  decisions: strArray,
  assumptions: strArray,
  corrections: strArray,
  rootCause: optStr,
  importance: num,
  closed: bool,
  metadata: obj,
  recordedAt: num,
};

const LINK_CHECKS: Record<string, Check> = {
  id: nonEmpty,
  tenant: nonEmpty,
  type: oneOf(LINK_TYPES),
  fromId: nonEmpty,
  toId: nonEmpty,
  weight: num,
  origin: oneOf(['explicit', 'inferred', 'reinforced']),
  evidence: optStr,
  createdAt: num,
};

const EVIDENCE_CHECKS: Record<string, Check> = {
  tenant: nonEmpty,
  factId: nonEmpty,
  episodeId: nonEmpty,
  polarity: oneOf(['support', 'contradict']),
  weight: num,
  at: num,
};

const PROCEDURE_CHECKS: Record<string, Check> = {
  id: nonEmpty,
  tenant: nonEmpty,
  ...SCOPE_CHECKS,
  name: nonEmpty,
  trigger: str,
  steps: strArray,
  preconditions: strArray,
  successCount: count,
  failureCount: count,
  notes: strArray,
  lastUsedAt: optNum,
  sourceEpisodeIds: strArray,
  createdAt: num,
  updatedAt: num,
};

const EXAMPLE_CHECKS: Record<string, Check> = {
  id: nonEmpty,
  tenant: nonEmpty,
  ...SCOPE_CHECKS,
  polarity: oneOf(['positive', 'negative']),
  query: nonEmpty,
  response: str,
  reason: optStr,
  origin: oneOf(['feedback', 'analysis']),
  contentHash: nonEmpty,
  createdAt: num,
};

const WORKING_MEMORY_CHECKS: Record<string, Check> = {
  tenant: nonEmpty,
  sessionId: nonEmpty,
  state: obj,
  updatedAt: num,
  expiresAt: optNum,
};

const API_KEY_CHECKS: Record<string, Check> = {
  id: nonEmpty,
  tenant: optStr,
  role: oneOf(['tenant', 'admin']),
  name: str,
  prefix: str,
  hash: nonEmpty,
  createdAt: num,
  revokedAt: optNum,
};

function assertOne(record: unknown, checks: Record<string, Check>, path: string): void {
  const issues: ErrorIssue[] = [];
  check(record, checks, path, issues);
  throwIfAny(issues, path);
}

export const assertEpisode = (e: Episode): void => assertOne(e, EPISODE_CHECKS, 'episode');
export const assertProcedure = (p: Procedure): void => assertOne(p, PROCEDURE_CHECKS, 'procedure');
export const assertExample = (e: Example): void => assertOne(e, EXAMPLE_CHECKS, 'example');

/** Every link checked first (one bad link writes nothing); a link from a memory to itself carries no meaning. */
export function assertLinks(links: readonly Link[]): void {
  if (!Array.isArray(links)) throwIfAny([{ path: 'links', message: 'expected an array' }], 'links');
  const issues: ErrorIssue[] = [];
  links.forEach((l, i) => {
    check(l, LINK_CHECKS, `links.${i}`, issues);
    if (obj(l) && l.fromId === l.toId) issues.push({ path: `links.${i}.toId`, message: 'a link must join two different memories' });
  });
  throwIfAny(issues, 'links');
}

export function assertEvidence(rows: readonly FactEvidence[]): void {
  if (!Array.isArray(rows)) throwIfAny([{ path: 'evidence', message: 'expected an array' }], 'evidence');
  const issues: ErrorIssue[] = [];
  rows.forEach((r, i) => check(r, EVIDENCE_CHECKS, `evidence.${i}`, issues));
  throwIfAny(issues, 'evidence');
}

export function assertWorkingMemory(rec: Omit<WorkingMemoryRecord, 'version'>, expectedVersion: number): void {
  const issues: ErrorIssue[] = [];
  check(rec, WORKING_MEMORY_CHECKS, 'workingMemory', issues);
  if (!count(expectedVersion)) issues.push({ path: 'expectedVersion', message: 'expected a non-negative integer' });
  throwIfAny(issues, 'workingMemory');
}

/** A tenant key acts for exactly one tenant; an admin key for none (it manages tenants). */
export function assertApiKey(k: ApiKeyRecord): void {
  const issues: ErrorIssue[] = [];
  check(k, API_KEY_CHECKS, 'apiKey', issues);
  if (obj(k) && k.role === 'tenant' && !nonEmpty(k.tenant)) issues.push({ path: 'apiKey.tenant', message: 'a tenant key needs a tenant' });
  if (obj(k) && k.role === 'admin' && k.tenant !== undefined) issues.push({ path: 'apiKey.tenant', message: 'an admin key has no tenant' });
  throwIfAny(issues, 'apiKey');
}
