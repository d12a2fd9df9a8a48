/**
 * Layered reads (docs/scopes.md): `scope.layers` on timeline queries and both searches. Every engine must
 * answer exactly the records core/layers.ts `visibleTo` accepts, and never another user's.
 */
import { describe, expect, it } from 'vitest';
import { visibleTo } from '../core/layers.js';
import type { Layers, NewEvent } from '../ports/storage.js';
import type { StorageHarness } from './storage-harness.js';
import { makeEvent, NOW, unitVector } from './storage-factories.js';

/** One record per layer case, all sharing the word "lantern" so every search can find each of them. */
function layeredEvents(): Record<string, NewEvent> {
  const at = (name: string, scope: Partial<NewEvent>) => makeEvent({ content: `lantern ${name} note`, tags: [], metadata: {}, ...scope });
  return {
    carolS1: at('carol first session', { userId: 'carol', sessionId: 's1' }),
    carolS2: at('carol this session', { userId: 'carol', sessionId: 's2', agentId: 'bot' }),
    carolOtherAgent: at('carol other agent', { userId: 'carol', agentId: 'other' }),
    dave: at('dave phone', { userId: 'dave', sessionId: 's9' }),
    shared: at('shared policy', {}),
    agentWide: at('agent wide', { agentId: 'bot' }),
    otherAgent: at('other agent wide', { agentId: 'other' }),
    anonS2: at('anonymous this session', { sessionId: 's2', agentId: 'other' }),
    anonS7: at('anonymous other session', { sessionId: 's7' }),
  };
}

const CASES: [string, Layers, string[]][] = [
  ['user + agent + session', { userId: 'carol', agentId: 'bot', sessionId: 's2' }, ['carolS1', 'carolS2', 'carolOtherAgent', 'shared', 'agentWide', 'anonS2']],
  ['user only', { userId: 'carol' }, ['carolS1', 'carolS2', 'carolOtherAgent', 'shared']],
  ['another user', { userId: 'dave', sessionId: 's9' }, ['dave', 'shared']],
  ['an unseen user', { userId: 'zed' }, ['shared']],
  ['session only', { sessionId: 's7' }, ['shared', 'anonS7']],
  ['no identity', {}, ['shared', 'agentWide', 'otherAgent', 'anonS2', 'anonS7']],
];

export function describeLayers(h: StorageHarness): void {
  describe('layered reads (scope.layers)', () => {
    it('timeline, lexical and vector search answer exactly the visible layers, never another user', async () => {
      const s = h.storage;
      const records = layeredEvents();
      const names = new Map(Object.entries(records).map(([name, e]) => [e.id, name]));
      await s.appendEvents(Object.values(records));
      const pending = await s.pendingEmbeddings(100);
      const vector = unitVector();
      await s.putEmbeddings(pending.map((p) => ({ contentHash: p.contentHash, vector })));
      for (const [label, layers, expected] of CASES) {
        const want = [...expected].sort();
        // The rule evaluated in process agrees with the table.
        expect(Object.entries(records).filter(([, e]) => visibleTo(e, layers)).map(([n]) => n).sort(), label).toEqual(want);
        const events = await s.queryEvents({ tenant: 'tenant-a', scope: { layers }, now: NOW });
        expect(events.map((e) => names.get(e.id)).sort(), `events: ${label}`).toEqual(want);
        const lexical = await s.lexicalSearch({ tenant: 'tenant-a', scope: { layers }, text: 'lantern', k: 50, now: NOW });
        const vectorHits = await s.vectorSearch({ tenant: 'tenant-a', scope: { layers }, vector, k: 50, now: NOW });
        for (const [what, hits] of [['lexical', lexical], ['vector', vectorHits]] as const) {
          const docs = await s.getDocs('tenant-a', hits.map((x) => x.docId));
          expect(docs.map((d) => names.get(d.refId)).sort(), `${what}: ${label}`).toEqual(want);
        }
      }
    });

    it('layers combine with exact scope fields and filters (both must hold)', async () => {
      const s = h.storage;
      const records = layeredEvents();
      const names = new Map(Object.entries(records).map(([name, e]) => [e.id, name]));
      await s.appendEvents(Object.values(records));
      const layers = { userId: 'carol', agentId: 'bot', sessionId: 's2' };
      const inSession = await s.queryEvents({ tenant: 'tenant-a', scope: { sessionId: 's2', layers }, now: NOW });
      expect(inSession.map((e) => names.get(e.id)).sort()).toEqual(['anonS2', 'carolS2']);
      const filtered = await s.lexicalSearch({ tenant: 'tenant-a', scope: { layers }, filter: { op: 'exists', field: { kind: 'column', name: 'user_id' }, value: true }, text: 'lantern', k: 50, now: NOW });
      const docs = await s.getDocs('tenant-a', filtered.map((x) => x.docId));
      expect(docs.map((d) => names.get(d.refId)).sort()).toEqual(['carolOtherAgent', 'carolS1', 'carolS2']);
    });
  });
}
