/**
 * Reading at a time (docs/scopes.md#time). `asOf` is valid time (the world as it was then), `knownAt`
 * transaction time (what Engram had recorded by then). Facts follow storage's FactListQuery rule: per lineage,
 * the latest version recorded by `knownAt` (default now) that is valid at `asOf` (default `knownAt`, else now),
 * where a version closed only after `knownAt` counts as open-ended; without either time, only live versions
 * whose validity has not ended.
 * Retrieval finds a lineage by the text of its live version; the version shown is the one that held then.
 */
import type { FilterNode } from '../core/filter.js';
import { factToDoc } from '../core/docs.js';
import type { Fact } from '../core/types.js';
import type { Storage } from '../ports/storage.js';
import { loadEvents, loadFacts } from './records.js';
import type { Candidate } from './types.js';

export interface ReadTime {
  asOf?: number | undefined;
  knownAt?: number | undefined;
}

export const isTimed = (t: ReadTime): boolean => t.asOf !== undefined || t.knownAt !== undefined;

/** Whether this fact version is served at the read time. */
export function factHolds(f: Fact, t: ReadTime, now: number): boolean {
  if (!isTimed(t)) return f.expiredAt === undefined && (f.validTo === undefined || f.validTo > now);
  const known = t.knownAt ?? now;
  const valid = t.asOf ?? known;
  // A version still live at `knownAt` had no end of validity from its closing yet: that end is ignored.
  const endsLater = t.knownAt !== undefined && f.expiredAt !== undefined && f.expiredAt > t.knownAt;
  return f.recordedAt <= known && (f.validFrom === undefined || f.validFrom <= valid) && (f.validTo === undefined || f.validTo > valid || endsLater);
}

/** The version of a lineage (versions oldest first) served at the read time, if any: the latest that holds. */
export function versionAt(versions: readonly Fact[], t: ReadTime, now: number): Fact | undefined {
  return [...versions].reverse().find((f) => factHolds(f, t, now));
}

/** `filter` narrowed so that memories other than facts happened by `asOf` (facts are resolved per lineage). */
export function asOfFilter(filter: FilterNode | undefined, asOf: number | undefined): FilterNode | undefined {
  if (asOf === undefined) return filter;
  const bound: FilterNode = {
    op: 'or',
    children: [
      { op: 'cmp', field: { kind: 'column', name: 'kind' }, cmp: 'eq', value: 'fact' },
      { op: 'cmp', field: { kind: 'column', name: 'ts' }, cmp: 'lte', value: asOf },
    ],
  };
  return filter ? { op: 'and', children: [filter, bound] } : bound;
}

/**
 * Semantic candidates at the read time: each fact replaced by its lineage's version that holds then (or left out
 * when none does, e.g. a fact whose validity ended: those are added to `leftOut` when given); with
 * `asOf`/`knownAt`, other memories from after then left out.
 */
export async function atReadTime(storage: Storage, tenant: string, candidates: readonly Candidate[], t: ReadTime, now: number, leftOut?: Candidate[]): Promise<Candidate[]> {
  const factIds = candidates.filter((c) => c.doc.kind === 'fact' && !c.fact).map((c) => c.doc.refId);
  const facts = await loadFacts(storage, tenant, factIds);
  const timed = isTimed(t);
  const eventIds = t.knownAt !== undefined ? candidates.filter((c) => c.doc.kind === 'event' && !c.event).map((c) => c.doc.refId) : [];
  const events = await loadEvents(storage, tenant, eventIds);
  const out: Candidate[] = [];
  for (const c of candidates) {
    if (c.doc.kind === 'fact') {
      const fact = c.fact ?? facts.get(c.doc.refId);
      if (!fact) continue;
      if (factHolds(fact, t, now)) {
        out.push({ ...c, fact });
        continue;
      }
      const then = timed ? versionAt(await storage.getFactVersions({ tenant, key: fact.key }), t, now) : undefined;
      if (then) out.push({ ...c, fact: then, doc: { ...c.doc, ...factToDoc(then), ...(c.doc.docId !== undefined ? { docId: c.doc.docId } : {}) } });
      else leftOut?.push({ ...c, fact });
      continue;
    }
    if (!timed) {
      out.push(c);
      continue;
    }
    if (t.asOf !== undefined && c.doc.ts > t.asOf) continue;
    if (t.knownAt !== undefined) {
      const recorded = c.doc.kind === 'event' ? (c.event ?? events.get(c.doc.refId))?.recordedAt : c.doc.ts;
      if (recorded === undefined || recorded > t.knownAt) continue;
    }
    out.push(c);
  }
  return out;
}
