/**
 * Records as the API returns them: the library's plain data with every time rendered as ISO-8601 (the data
 * model keeps epoch milliseconds; surfaces render them, see core/types.ts). Nothing else changes.
 */
import type { ApiKeyRecord, Doc, Fact, MemoryEvent } from '../../core/types.js';
import type { LoggedEvent } from '../../memory.js';
import type { SearchHit } from '../../read/types.js';
import type { PublicApiKey } from './keys.js';

type Iso<T, K extends keyof T> = Omit<T, K> & { [P in K]: undefined extends T[P] ? string | undefined : string };

export function iso(ms: number): string;
export function iso(ms: number | undefined): string | undefined;
export function iso(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

export type EventView = Iso<MemoryEvent, 'ts' | 'recordedAt' | 'expiresAt'>;
export function presentEvent(e: MemoryEvent): EventView {
  return { ...e, ts: iso(e.ts), recordedAt: iso(e.recordedAt), expiresAt: iso(e.expiresAt) };
}

export function presentLoggedEvent(e: LoggedEvent): EventView & { duplicate: boolean } {
  return { ...presentEvent(e), duplicate: e.duplicate };
}

export type FactView = Iso<Fact, 'validFrom' | 'validTo' | 'recordedAt' | 'expiredAt' | 'expiresAt'>;
export function presentFact(f: Fact): FactView {
  return {
    ...f,
    validFrom: iso(f.validFrom),
    validTo: iso(f.validTo),
    recordedAt: iso(f.recordedAt),
    expiredAt: iso(f.expiredAt),
    expiresAt: iso(f.expiresAt),
  };
}

/** `docId` is storage-internal (it keys the indexes) and not part of the API. */
export type DocView = Omit<Iso<Doc, 'ts' | 'expiresAt'>, 'docId' | 'tenant'>;
export function presentDoc(d: Omit<Doc, 'docId'> & { docId?: number | undefined }): DocView {
  const { docId: _docId, tenant: _tenant, ...rest } = d;
  return { ...rest, ts: iso(d.ts), expiresAt: iso(d.expiresAt) };
}

export function presentHit(h: SearchHit): { doc: DocView; score: number; scores: SearchHit['scores'] } {
  return { doc: presentDoc(h.doc), score: h.score, scores: h.scores };
}

export type KeyView = Iso<PublicApiKey, 'createdAt' | 'revokedAt'>;
export function presentKey(k: PublicApiKey | ApiKeyRecord): KeyView {
  const { hash: _hash, ...rest } = k as ApiKeyRecord;
  return { ...rest, createdAt: iso(k.createdAt), revokedAt: iso(k.revokedAt) };
}
