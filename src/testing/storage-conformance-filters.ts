import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventToDoc, factToDoc } from '../core/docs.js';
import { matchesFilter } from '../core/filter.js';
import { EVENT_TYPES, type Fact } from '../core/types.js';
import type { NewEvent } from '../ports/storage.js';
import type { StorageHarness } from './storage-harness.js';
import { makeEvent, makeFact, NOW, seededRng, unitVector } from './storage-factories.js';
import { filterArb, metadataArb, STRINGS, tagsArb, TS_POOL, UNIT_POOL } from './storage-filter-arbitraries.js';

const optString = fc.option(fc.constantFrom(...STRINGS), { nil: undefined });

const eventArb: fc.Arbitrary<Partial<NewEvent>> = fc.record({
  type: fc.constantFrom(...EVENT_TYPES),
  source: optString,
  stateLabel: optString,
  userId: optString,
  sessionId: optString,
  tags: tagsArb,
  importance: fc.constantFrom(...UNIT_POOL),
  ts: fc.constantFrom(...TS_POOL),
  metadata: metadataArb,
  pii: fc.boolean().map((scrubbed) => ({ scrubbed, counts: {} })),
});

const factArb: fc.Arbitrary<Partial<Fact>> = fc.record({
  source: optString,
  section: optString,
  agentId: optString,
  tags: tagsArb,
  importance: fc.constantFrom(...UNIT_POOL),
  confidence: fc.constantFrom(...UNIT_POOL),
  validFrom: fc.constantFrom(...TS_POOL),
  metadata: metadataArb,
  pii: fc.boolean(),
});

/**
 * The adapter's compiled filters must select exactly the docs `matchesFilter` selects, through every
 * method that takes a filter: lexical search, vector search and (for events) queryEvents.
 */
export function describeFilterAgreement(h: StorageHarness): void {
  describe('filters agree with matchesFilter', () => {
    it('on random docs and random filter trees', async () => {
      const r = seededRng(99);
      const events = fc.sample(eventArb, { numRuns: 40, seed: 1 }).map((o, i) => makeEvent({ ...o, content: `common words event ${i}` }, r));
      const facts = fc.sample(factArb, { numRuns: 20, seed: 2 }).map((o, i) => makeFact({ ...o, text: `common words fact ${i}` }, r));
      await h.storage.appendEvents(events);
      for (const f of facts) await h.storage.putFact(f);
      const pending = await h.storage.pendingEmbeddings(1000);
      await h.storage.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector: unitVector(undefined, r) })));
      const docs = [...events.map(eventToDoc), ...facts.map(factToDoc)].map((d) => ({ ...d, docId: 0 }));
      const k = docs.length + 10;
      const refsOf = async (hits: { docId: number }[]) => new Set((await h.storage.getDocs('tenant-a', hits.map((x) => x.docId))).map((d) => d.refId));

      await fc.assert(
        fc.asyncProperty(filterArb, async (filter) => {
          const expected = new Set(docs.filter((d) => matchesFilter(d, filter)).map((d) => d.refId));
          const lexical = await refsOf(await h.storage.lexicalSearch({ tenant: 'tenant-a', text: 'common', k, now: NOW, filter }));
          expect(lexical).toEqual(expected);
          const vector = await refsOf(await h.storage.vectorSearch({ tenant: 'tenant-a', vector: unitVector(undefined, r), k, now: NOW, filter }));
          expect(vector).toEqual(expected);
          const timeline = await h.storage.queryEvents({ tenant: 'tenant-a', now: NOW, filter });
          expect(new Set(timeline.map((e) => e.id))).toEqual(new Set(events.map((e) => e.id).filter((id) => expected.has(id))));
        }),
        { numRuns: 150, seed: 4242 },
      );
    });
  });
}
