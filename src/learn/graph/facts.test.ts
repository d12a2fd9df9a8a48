import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../surfaces/mcp/memory.test-support.js';
import { factRelationOf } from './facts.js';

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('facts that state a relation', () => {
  it('maps predicates deterministically, in the relation direction (a role noun reverses it); others map to nothing', () => {
    expect(factRelationOf({ subject: 'Dana', predicate: 'Works at', value: 'Initech' })).toMatchObject({ source: 'Dana', target: 'Initech', type: 'works_at', targetType: 'organization' });
    expect(factRelationOf({ subject: 'Dana', predicate: 'manager', value: 'Carol' })).toMatchObject({ source: 'Carol', target: 'Dana', type: 'manages', reversed: true });
    expect(factRelationOf({ subject: 'Dana', predicate: 'reports-to', value: 'Carol' })).toMatchObject({ source: 'Carol', target: 'Dana', type: 'manages' });
    expect(factRelationOf({ subject: 'Dana', predicate: 'lives_in', value: 'Lisbon' })).toMatchObject({ type: 'lives_in', targetType: 'place' });
    expect(factRelationOf({ subject: 'Dana', predicate: 'speaks', value: 'Portuguese' })).toBeUndefined();
    expect(factRelationOf({ subject: 'Dana', predicate: 'likes', value: 'tea; coffee' })).toBeUndefined();
    expect(factRelationOf({ predicate: 'works_at', value: 'Initech' })).toBeUndefined();
  });

  it('remember() writes the relation citing the fact; a new version closes the old edge; forgetting the fact removes its edge', async () => {
    t = await openTestMemory();
    const first = await t.memory.remember({ text: 'Dana works at Initech.', subject: 'Dana', predicate: 'works_at', value: 'Initech' });
    const [edge] = await t.memory.graph.relations({ entity: 'Dana' });
    expect(edge).toMatchObject({ from: 'Dana', to: 'Initech', type: 'works_at', text: 'Dana works at Initech.', provenance: { origin: 'extraction', factIds: [first.fact.id] } });
    // A role noun reads the other way round: Carol manages Dana.
    await t.memory.remember({ text: "Dana's manager is Carol.", subject: 'Dana', predicate: 'manager', value: 'Carol' });
    expect((await t.memory.graph.relations({ entity: 'Carol', direction: 'out' })).map((r) => `${r.from} ${r.type} ${r.to}`)).toEqual(['Carol manages Dana']);
    // The same fact again is a duplicate: no second edge.
    await t.memory.remember({ text: 'Dana works at Initech.', subject: 'Dana', predicate: 'works_at', value: 'Initech' });
    const second = await t.memory.remember({ text: 'Dana works at Hooli.', subject: 'Dana', predicate: 'works_at', value: 'Hooli' });
    expect(second.status).toBe('versioned');
    const jobs = await t.memory.graph.relations({ entity: 'Dana', types: ['works_at'], includeExpired: true });
    expect(jobs.map((r) => [r.to, r.expiredAt === undefined])).toEqual([
      ['Initech', false],
      ['Hooli', true],
    ]);
    // The graph answers from the fact: "Who is Dana's manager?" shows Carol's relation.
    const ctx = await t.memory.getContext("Who is Dana's manager?", { episodic_window: { mode: 'none' } });
    expect(ctx.entities?.[0]?.text).toBe('Carol manages Dana');
    // Forgetting the fact (its lineage: both versions) takes the edges read from it; the manager's edge stays.
    await t.memory.forget({ ids: [second.fact.id] });
    const left = await t.memory.graph.relations({ entity: 'Dana', includeExpired: true });
    expect(left.map((r) => `${r.from} ${r.type} ${r.to}`)).toEqual(['Carol manages Dana']);
  });

  it('a predicate that names no relation writes no graph record', async () => {
    t = await openTestMemory();
    await t.memory.remember({ text: 'Erin speaks French.', subject: 'Erin', predicate: 'speaks', value: 'French' });
    expect(await t.memory.graph.relations({})).toEqual([]);
  });
});
