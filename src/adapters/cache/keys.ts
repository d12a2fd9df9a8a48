/**
 * Key layout. Every cached entry lives under generation tokens read from Redis before the primary was read:
 * a global one (bumped by `sweepExpired`, which spans tenants), one per tenant and family (bumped by that
 * tenant's writes to the family), and for event windows one per stream (bumped by appends). A bump makes
 * every older entry unreachable; TTLs reclaim the memory.
 *
 *   <prefix>gen                                   global token
 *   <prefix>gen:<family>:<tenant>                 family token of one tenant
 *   <prefix>gen:ev:<tenant>:s:<session>           stream token: appends to one session
 *   <prefix>gen:ev:<tenant>:any                   stream token: appends to any session (or none)
 *   <prefix><family>:<tenant>:<token>.<token>…:<sub>   an entry
 *
 * Appends bump only stream tokens: a window scoped to a session depends on that session's appends, any other
 * window on all of the tenant's appends; redaction and forget (which may touch any event) bump the family.
 */
import { createHash, randomBytes } from 'node:crypto';

export const FAMILIES = ['events', 'facts', 'workingMemory'] as const;
export type Family = (typeof FAMILIES)[number];

const SHORT: Record<Family, string> = { events: 'ev', facts: 'fact', workingMemory: 'wm' };

/** Tenant ids and record keys are caller strings: encode them so no value can forge another key's shape. */
const part = (s: string): string => encodeURIComponent(s);

/** What an entry depends on: its family and tenant, and the token keys it is stored under (outermost first). */
export interface EntryScope {
  family: Family;
  tenant: string;
  tokenKeys: readonly string[];
}

export class KeyLayout {
  constructor(readonly prefix: string) {}

  get globalToken(): string {
    return `${this.prefix}gen`;
  }

  familyToken(family: Family, tenant: string): string {
    return `${this.prefix}gen:${SHORT[family]}:${part(tenant)}`;
  }

  /** Appends to `sessionId` (or, undefined, to anything in the tenant) bump this. */
  streamToken(tenant: string, sessionId: string | undefined): string {
    const base = this.familyToken('events', tenant);
    return sessionId === undefined ? `${base}:any` : `${base}:s:${part(sessionId)}`;
  }

  scope(family: Family, tenant: string, extra: readonly string[] = []): EntryScope {
    return { family, tenant, tokenKeys: [this.globalToken, this.familyToken(family, tenant), ...extra] };
  }

  /** The part of an entry key before the tokens; the lookup script appends `<tokens>:<sub>` itself. */
  entryBase(family: Family, tenant: string): string {
    return `${this.prefix}${SHORT[family]}:${part(tenant)}:`;
  }

  entry(scope: EntryScope, tokens: readonly string[], sub: string): string {
    return `${this.entryBase(scope.family, scope.tenant)}${tokens.join('.')}:${sub}`;
  }
}

/**
 * A fresh generation token. Random rather than a counter: a counter that Redis loses (restart, eviction)
 * starts again at values older entries still carry — an in-flight fill from before the loss could then
 * become reachable again. A random token never repeats.
 */
export function freshToken(): string {
  return randomBytes(12).toString('base64url');
}

export const idSub = (kind: string, id: string): string => `${kind}:${part(id)}`;

/** A digest of a query object: keys sorted at every level, undefined members dropped. */
export function queryDigest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url').slice(0, 32);
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Escapes Redis glob characters so a tenant id is matched literally by SCAN MATCH. */
export function globEscape(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
