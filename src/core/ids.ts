import { monotonicFactory } from 'ulid';
import { EngramError } from './errors.js';

/** Prefixes make ids self-describing in logs and let the API reject an id of the wrong kind early. */
export const ID_PREFIX = {
  event: 'evt',
  fact: 'fct',
  episode: 'eps',
  link: 'lnk',
  procedure: 'prc',
  example: 'exm',
  retrieval: 'ret',
  audit: 'aud',
  working: 'wrk',
  key: 'key',
  entity: 'ent',
  relation: 'rel',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const next = monotonicFactory();
const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** A time-sortable id: `<prefix>_<ULID>`. Lexical order is creation order within one process. */
export function newId(kind: IdKind, at?: number): string {
  return `${ID_PREFIX[kind]}_${next(at)}`;
}

export function isId(kind: IdKind, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const prefix = `${ID_PREFIX[kind]}_`;
  return value.startsWith(prefix) && ULID_RE.test(value.slice(prefix.length));
}

export function assertId(kind: IdKind, value: unknown, path = 'id'): string {
  if (!isId(kind, value)) {
    throw new EngramError('VALIDATION', `${path} is not a valid ${kind} id`, {
      issues: [{ path, message: `expected ${ID_PREFIX[kind]}_<ULID>` }],
    });
  }
  return value;
}

/** Which kind an id names, from its prefix; undefined for anything else. */
export function idKind(value: string): IdKind | undefined {
  const prefix = value.split('_', 1)[0];
  const entry = Object.entries(ID_PREFIX).find(([, p]) => p === prefix);
  return entry && isId(entry[0] as IdKind, value) ? (entry[0] as IdKind) : undefined;
}
