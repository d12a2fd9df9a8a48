import { describe, expect, it } from 'vitest';
import type { Entity, Relation } from '../core/graph.js';
import { newId } from '../core/ids.js';
import { BASE_TS, makeEvent, NOW } from './storage-factories.js';
import { expectCode, type StorageHarness } from './storage-harness.js';

export function makeEntity(overrides: Partial<Entity> & Pick<Entity, 'name'>): Entity {
  return {
    id: newId('entity'),
    tenant: 'tenant-a',
    entityType: 'person',
    aliases: [],
    observations: [],
    provenance: { origin: 'user', eventIds: [], factIds: [] },
    createdAt: BASE_TS,
    updatedAt: BASE_TS,
    ...overrides,
  };
}

export function makeRelation(overrides: Partial<Relation> & Pick<Relation, 'sourceId' | 'targetId' | 'type'>): Relation {
  return {
    id: newId('relation'),
    tenant: 'tenant-a',
    recordedAt: BASE_TS,
    confidence: 0.8,
    provenance: { origin: 'user', eventIds: [], factIds: [] },
    ...overrides,
  };
}

export function describeGraph(h: StorageHarness): void {
  const people = async (...names: string[]) => h.storage.putEntities(names.map((name) => makeEntity({ name })));

  describe('knowledge graph: entities', () => {
    it('stores entities and merges a repeated name (case, possessive, alias) into the stored one', async () => {
      const [alice] = await h.storage.putEntities([makeEntity({ name: 'Alice Smith', aliases: ['Alice'], observations: ['likes tea'] })]);
      expect(await h.storage.getEntities('tenant-a', [alice!.id])).toEqual([alice]);
      const [again] = await h.storage.putEntities([
        makeEntity({ name: "alice's", observations: ['likes tea', 'plays chess'], updatedAt: BASE_TS + 5, provenance: { origin: 'extraction', eventIds: ['evt_X'], factIds: [] } }),
      ]);
      expect(again!.id).toBe(alice!.id);
      expect(again!.name).toBe('Alice Smith');
      expect(again!.observations).toEqual(['likes tea', 'plays chess']);
      expect(again!.provenance).toEqual({ origin: 'user', eventIds: ['evt_X'], factIds: [] });
      expect(again!.updatedAt).toBe(BASE_TS + 5);
      expect(await h.storage.getEntities('tenant-a', [alice!.id])).toEqual([again]);
      // Another scope, or another tenant, is another entity.
      const [mine] = await h.storage.putEntities([makeEntity({ name: 'Alice', userId: 'u1' })]);
      const [theirs] = await h.storage.putEntities([makeEntity({ name: 'Alice', tenant: 'tenant-b' })]);
      expect(new Set([alice!.id, mine!.id, theirs!.id]).size).toBe(3);
    });

    it('finds entities by name or alias, by text and by type; replaces one by id', async () => {
      const [bob, acme] = await h.storage.putEntities([
        makeEntity({ name: 'Robert', aliases: ['Bob'], observations: ['Speaks fluent Spanish'] }),
        makeEntity({ name: 'Acme Corp', entityType: 'organization' }),
      ]);
      expect((await h.storage.findEntities({ tenant: 'tenant-a', names: ["Bob's"] })).map((e) => e.id)).toEqual([bob!.id]);
      expect((await h.storage.findEntities({ tenant: 'tenant-a', names: ['the acme corp'] })).map((e) => e.id)).toEqual([acme!.id]);
      expect((await h.storage.findEntities({ tenant: 'tenant-a', text: 'SPANISH' })).map((e) => e.id)).toEqual([bob!.id]);
      expect((await h.storage.findEntities({ tenant: 'tenant-a', text: '100%' }))).toEqual([]);
      expect((await h.storage.findEntities({ tenant: 'tenant-a', types: ['organization'] })).map((e) => e.id)).toEqual([acme!.id]);
      expect(await h.storage.findEntities({ tenant: 'tenant-b', names: ['Bob'] })).toEqual([]);
      const replaced = await h.storage.replaceEntity({ ...bob!, aliases: [], observations: [], updatedAt: BASE_TS + 9 });
      expect(replaced.observations).toEqual([]);
      expect(await h.storage.findEntities({ tenant: 'tenant-a', names: ['Bob'] })).toEqual([]);
      await expectCode(h.storage.replaceEntity(makeEntity({ name: 'Nobody' })), 'NOT_FOUND');
      await expectCode(h.storage.putEntities([makeEntity({ name: '  ' })]), 'VALIDATION');
    });
  });

  describe('knowledge graph: relations', () => {
    it('keeps direction, reinforces a repeated edge, and refuses unknown entities', async () => {
      const [alice, bob, carol] = await people('Alice', 'Bob', 'Carol');
      const [ab] = await h.storage.putRelations([{ relation: makeRelation({ sourceId: alice!.id, targetId: bob!.id, type: 'manages', text: 'Alice manages Bob.' }) }]);
      const [ca] = await h.storage.putRelations([{ relation: makeRelation({ sourceId: carol!.id, targetId: alice!.id, type: 'manages', text: 'Carol manages Alice.' }) }]);
      const managersOfAlice = await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id], direction: 'in', types: ['manages'] });
      expect(managersOfAlice.map((r) => r.id)).toEqual([ca!.relation.id]);
      const aliceManages = await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id], direction: 'out' });
      expect(aliceManages.map((r) => r.id)).toEqual([ab!.relation.id]);
      expect((await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id] })).length).toBe(2);
      const [again] = await h.storage.putRelations([
        { relation: makeRelation({ sourceId: alice!.id, targetId: bob!.id, type: 'manages', confidence: 0.95, provenance: { origin: 'extraction', eventIds: ['evt_A'], factIds: [] } }) },
      ]);
      expect(again).toMatchObject({ duplicate: true, closed: [], relation: { id: ab!.relation.id, confidence: 0.95, text: 'Alice manages Bob.' } });
      expect((await h.storage.getRelations('tenant-a', [ab!.relation.id]))[0]!.provenance.eventIds).toEqual(['evt_A']);
      await expectCode(h.storage.putRelations([{ relation: makeRelation({ sourceId: alice!.id, targetId: newId('entity'), type: 'knows' }) }]), 'NOT_FOUND');
      await expectCode(h.storage.putRelations([{ relation: makeRelation({ sourceId: alice!.id, targetId: bob!.id, type: 'Knows Well' }) }]), 'VALIDATION');
    });

    it('a contradicting exclusive edge closes the old one, which stays for history and as-of reads', async () => {
      const [alice, paris, berlin] = await h.storage.putEntities([
        makeEntity({ name: 'Alice' }),
        makeEntity({ name: 'Paris', entityType: 'place' }),
        makeEntity({ name: 'Berlin', entityType: 'place' }),
      ]);
      const t1 = BASE_TS + 1000;
      const t2 = BASE_TS + 2000;
      const [first] = await h.storage.putRelations([{ relation: makeRelation({ sourceId: alice!.id, targetId: paris!.id, type: 'lives_in', recordedAt: t1, validFrom: t1 }), exclusive: true }]);
      const [second] = await h.storage.putRelations([{ relation: makeRelation({ sourceId: alice!.id, targetId: berlin!.id, type: 'lives_in', recordedAt: t2, validFrom: t2 }), exclusive: true }]);
      expect(second!.closed).toEqual([first!.relation.id]);
      expect(second!.relation.supersedes).toBe(first!.relation.id);
      const live = await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id] });
      expect(live.map((r) => r.targetId)).toEqual([berlin!.id]);
      const then = await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id], asOf: t1 + 500 });
      expect(then.map((r) => r.targetId)).toEqual([paris!.id]);
      expect(await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id], asOf: t1 - 1 })).toEqual([]);
      const history = await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id], includeExpired: true });
      expect(history.map((r) => [r.targetId, r.expiredAt, r.validTo])).toEqual([
        [paris!.id, t2, t2],
        [berlin!.id, undefined, undefined],
      ]);
      const validThen = await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id], includeExpired: true, validAt: t1 + 1 });
      expect(validThen.map((r) => r.targetId)).toEqual([paris!.id]);
      // A non-exclusive edge of the same type to another target leaves the live one alone.
      const [also] = await h.storage.putRelations([{ relation: makeRelation({ sourceId: alice!.id, targetId: paris!.id, type: 'lives_in', recordedAt: t2 + 1 }) }]);
      expect(also!.closed).toEqual([]);
      expect((await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id] })).length).toBe(2);
      // Closing keeps the row.
      expect(await h.storage.closeRelations('tenant-a', [also!.relation.id], t2 + 5)).toBe(1);
      expect(await h.storage.closeRelations('tenant-a', [also!.relation.id], t2 + 6)).toBe(0);
      expect((await h.storage.getRelations('tenant-a', [also!.relation.id]))[0]).toMatchObject({ expiredAt: t2 + 5, validTo: t2 + 5 });
    });

    it("a target-exclusive edge closes the target's old one (one manager at a time); a replayed event does not reopen it", async () => {
      const [amara, zoe, felix] = await people('Amara', 'Zoe', 'Felix');
      const cite = (id: string) => ({ origin: 'extraction' as const, eventIds: [id], factIds: [] });
      const [first] = await h.storage.putRelations([{ relation: makeRelation({ sourceId: amara!.id, targetId: felix!.id, type: 'manages', provenance: cite('evt_1') }), exclusive: 'target' }]);
      const [second] = await h.storage.putRelations([
        { relation: makeRelation({ sourceId: zoe!.id, targetId: felix!.id, type: 'manages', recordedAt: BASE_TS + 10, provenance: cite('evt_2') }), exclusive: 'target' },
      ]);
      expect(second!.closed).toEqual([first!.relation.id]);
      const replay = await h.storage.putRelations([
        { relation: makeRelation({ sourceId: amara!.id, targetId: felix!.id, type: 'manages', recordedAt: BASE_TS + 20, provenance: cite('evt_1') }), exclusive: 'target' },
      ]);
      expect(replay[0]).toMatchObject({ duplicate: true, relation: { id: first!.relation.id } });
      expect((await h.storage.queryRelations({ tenant: 'tenant-a', entityIds: [felix!.id], direction: 'in' })).map((r) => r.sourceId)).toEqual([zoe!.id]);
    });

    it('deleting an entity deletes the relations touching it', async () => {
      const [a, b, c] = await people('A', 'B', 'C');
      await h.storage.putRelations([
        { relation: makeRelation({ sourceId: a!.id, targetId: b!.id, type: 'knows' }) },
        { relation: makeRelation({ sourceId: c!.id, targetId: a!.id, type: 'knows' }) },
        { relation: makeRelation({ sourceId: b!.id, targetId: c!.id, type: 'knows' }) },
      ]);
      expect(await h.storage.deleteEntities('tenant-a', [a!.id])).toEqual({ entities: 1, relations: 2 });
      expect((await h.storage.queryRelations({ tenant: 'tenant-a' })).map((r) => r.sourceId)).toEqual([b!.id]);
      expect(await h.storage.findEntities({ tenant: 'tenant-a', names: ['A'] })).toEqual([]);
    });
  });

  describe('knowledge graph: forget', () => {
    it('forgetting an event removes the relations read from it and the entities nothing else supports', async () => {
      const [e1, e2] = await h.storage.appendEvents([makeEvent({ content: 'Dana works at Initech.' }), makeEvent({ content: 'Dana is nice.' })]);
      const fromEvent = (...ids: string[]) => ({ origin: 'extraction' as const, eventIds: ids, factIds: [] });
      const [dana, initech] = await h.storage.putEntities([
        makeEntity({ name: 'Dana', provenance: fromEvent(e1!.id, e2!.id) }),
        makeEntity({ name: 'Initech', entityType: 'organization', provenance: fromEvent(e1!.id) }),
      ]);
      await h.storage.putRelations([{ relation: makeRelation({ sourceId: dana!.id, targetId: initech!.id, type: 'works_at', provenance: fromEvent(e1!.id) }) }]);
      const report = await h.storage.forget({ tenant: 'tenant-a', ids: [e1!.id] }, NOW);
      expect(report).toMatchObject({ events: 1, entities: 1, relations: 1 });
      const [left] = await h.storage.getEntities('tenant-a', [dana!.id]);
      expect(left!.provenance.eventIds).toEqual([e2!.id]);
      expect(await h.storage.getEntities('tenant-a', [initech!.id])).toEqual([]);
      expect(await h.storage.queryRelations({ tenant: 'tenant-a', includeExpired: true })).toEqual([]);
    });

    it('forgetting one of two events a relation cites keeps it: the citation and the statement go, the other citation stays', async () => {
      const [e1, e2] = await h.storage.appendEvents([makeEvent({ content: 'Eve works at Hooli.' }), makeEvent({ content: 'Eve still works at Hooli.' })]);
      const [eve, hooli] = await h.storage.putEntities([
        makeEntity({ name: 'Eve', provenance: { origin: 'extraction', eventIds: [e1!.id], factIds: [] } }),
        makeEntity({ name: 'Hooli', entityType: 'organization', provenance: { origin: 'extraction', eventIds: [e1!.id], factIds: [] } }),
      ]);
      const rel = makeRelation({ sourceId: eve!.id, targetId: hooli!.id, type: 'works_at', text: 'Eve works at Hooli.', provenance: { origin: 'extraction', eventIds: [e1!.id, e2!.id], factIds: [] } });
      await h.storage.putRelations([{ relation: rel }]);
      const report = await h.storage.forget({ tenant: 'tenant-a', ids: [e1!.id] }, NOW);
      expect(report.relations ?? 0).toBe(0);
      const [kept] = await h.storage.getRelations('tenant-a', [rel.id]);
      expect(kept!.provenance.eventIds).toEqual([e2!.id]);
      expect(kept!.text).toBeUndefined();
      // The entities lost their only citation, but the relation that stays still joins them.
      expect((await h.storage.getEntities('tenant-a', [eve!.id, hooli!.id])).map((e) => e.provenance.eventIds)).toEqual([[], []]);
      // Forgetting the other event leaves the relation unsupported: it goes, and the entities with it.
      expect(await h.storage.forget({ tenant: 'tenant-a', ids: [e2!.id] }, NOW)).toMatchObject({ relations: 1, entities: 2 });
      expect(await h.storage.queryRelations({ tenant: 'tenant-a', includeExpired: true })).toEqual([]);
    });

    it('the retention sweep drops citations of expired events: an unsupported relation (closed edges too) goes, a supported one stays', async () => {
      const [old, kept] = await h.storage.appendEvents([
        makeEvent({ content: 'Fay lives in Oslo. Fay works at Globex.', expiresAt: NOW - 1 }),
        makeEvent({ content: 'Fay works at Globex.' }),
      ]);
      const from = (...ids: string[]) => ({ origin: 'extraction' as const, eventIds: ids, factIds: [] });
      const [fay, oslo, bergen, globex] = await h.storage.putEntities([
        makeEntity({ name: 'Fay', provenance: from(old!.id, kept!.id) }),
        makeEntity({ name: 'Oslo', entityType: 'place', provenance: from(old!.id) }),
        makeEntity({ name: 'Bergen', entityType: 'place', provenance: { origin: 'user', eventIds: [], factIds: [] } }),
        makeEntity({ name: 'Globex', entityType: 'organization', provenance: from(old!.id, kept!.id) }),
      ]);
      const lives = makeRelation({ sourceId: fay!.id, targetId: oslo!.id, type: 'lives_in', provenance: from(old!.id) });
      const works = makeRelation({ sourceId: fay!.id, targetId: globex!.id, type: 'works_at', text: 'Fay works at Globex.', provenance: from(old!.id, kept!.id) });
      const stated = makeRelation({ sourceId: fay!.id, targetId: bergen!.id, type: 'lives_in', recordedAt: BASE_TS + 1, provenance: { origin: 'user', eventIds: [], factIds: [] } });
      await h.storage.putRelations([{ relation: lives }, { relation: works }]);
      // A user-stated move closes the edge read from the expiring event: the closed edge is unsupported history.
      await h.storage.putRelations([{ relation: stated, exclusive: true }]);
      expect((await h.storage.getRelations('tenant-a', [lives.id]))[0]!.expiredAt).toBeDefined();
      await h.storage.sweepExpired(NOW);
      expect(await h.storage.getRelations('tenant-a', [lives.id])).toEqual([]);
      const [work] = await h.storage.getRelations('tenant-a', [works.id]);
      expect(work!.provenance.eventIds).toEqual([kept!.id]);
      expect((await h.storage.getRelations('tenant-a', [stated.id])).map((r) => r.id)).toEqual([stated.id]);
      expect(await h.storage.getEntities('tenant-a', [oslo!.id])).toEqual([]);
      expect((await h.storage.getEntities('tenant-a', [fay!.id]))[0]!.provenance.eventIds).toEqual([kept!.id]);
      // Nothing left cites the swept event: forgetting it now changes nothing in the graph.
      expect(JSON.stringify(await h.storage.queryRelations({ tenant: 'tenant-a', includeExpired: true }))).not.toContain(old!.id);
    });

    it('forgets by entity id, by scope and the whole tenant', async () => {
      const [x, y] = await h.storage.putEntities([makeEntity({ name: 'X', userId: 'u1' }), makeEntity({ name: 'Y', userId: 'u2' })]);
      const [z] = await h.storage.putEntities([makeEntity({ name: 'Z', userId: 'u2' })]);
      await h.storage.putRelations([{ relation: makeRelation({ sourceId: y!.id, targetId: z!.id, type: 'knows', userId: 'u2' }) }]);
      expect(await h.storage.forget({ tenant: 'tenant-a', ids: [x!.id] }, NOW)).toMatchObject({ entities: 1 });
      expect(await h.storage.getEntities('tenant-a', [x!.id])).toEqual([]);
      expect(await h.storage.forget({ tenant: 'tenant-a', scope: { userId: 'u2' } }, NOW)).toMatchObject({ entities: 2, relations: 1 });
      await h.storage.putEntities([makeEntity({ name: 'W' })]);
      expect(await h.storage.forget({ tenant: 'tenant-a', scope: {} }, NOW)).toMatchObject({ entities: 1 });
      expect(await h.storage.findEntities({ tenant: 'tenant-a' })).toEqual([]);
    });
  });
}
