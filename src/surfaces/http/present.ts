/**
 * Records as the API returns them: the library's plain data in the wire casing (wire.ts: snake_case keys,
 * ISO-8601 times). Storage-internal fields are dropped here; nothing else changes.
 */
import type { ApiKeyRecord, Doc, Fact, MemoryEvent } from '../../core/types.js';
import type { LoggedEvent } from '../../memory.js';
import type { RetrievedItem } from '../../ports/storage.js';
import type { SearchHit } from '../../read/types.js';
import type { PublicApiKey } from './keys.js';
import { toWire, type Wire } from './wire.js';

export function presentEvent(e: MemoryEvent): Wire<MemoryEvent> {
  return toWire(e);
}

export function presentLoggedEvent(e: LoggedEvent): Wire<LoggedEvent> {
  return toWire(e);
}

export function presentFact(f: Fact): Wire<Fact> {
  return toWire(f);
}

/** `docId` is storage-internal (it keys the indexes) and not part of the API; the tenant is the caller's. */
export function presentDoc(d: Omit<Doc, 'docId'> & { docId?: number | undefined }): Wire<Omit<Doc, 'docId' | 'tenant'>> {
  const { docId: _docId, tenant: _tenant, ...rest } = d;
  return toWire(rest);
}

export function presentHit(h: SearchHit) {
  return { doc: presentDoc(h.doc), score: h.score, scores: h.scores, layer: h.layer };
}

export function presentKey(k: PublicApiKey | ApiKeyRecord): Wire<PublicApiKey> {
  const { hash: _hash, ...rest } = k as ApiKeyRecord;
  return toWire(rest);
}

/**
 * A retrieval record's items as the API returns them. The record keeps a weak match (read/explain.ts) as
 * `weak: 1`, its scores being numbers; the API says `weak: true`, as getContext's items do.
 */
export function presentRetrievedItems(items: readonly RetrievedItem[]) {
  return items.map((i) => {
    const { weak, ...scores } = i.scores;
    return { ...i, scores: { ...scores, ...(weak ? { weak: true } : {}) } };
  });
}
