import { afterEach, describe, expect, it } from 'vitest';
import { fakeOpenAi } from '../../adapters/llms/fake-protocols.test-support.js';
import { startLoopback, type Loopback } from '../../adapters/llms/loopback.test-support.js';
import { createOpenAiCompatibleLlm } from '../../adapters/llms/openai-compatible.js';
import { openSqliteStorage } from '../../adapters/storage/sqlite/index.js';
import type { MemoryEvent } from '../../core/types.js';
import type { Storage } from '../../ports/storage.js';
import { makeEvent } from '../../testing/storage-factories.js';
import { llmExtractor, ruleExtractor } from './extract-llm.js';
import { firstNameAlias, GraphLearner, groupAlias } from './learn.js';

let server: Loopback | undefined;
let storage: Storage | undefined;
afterEach(async () => {
  await server?.close();
  await storage?.close();
  server = undefined;
  storage = undefined;
});

async function store(): Promise<Storage> {
  storage = await openSqliteStorage({ path: ':memory:' });
  await storage.init({ embeddingModel: 'test', dimension: 8 });
  return storage;
}

const clock = { now: () => Date.UTC(2026, 0, 1) };

async function appended(s: Storage, turns: [string | undefined, string][]): Promise<MemoryEvent[]> {
  const events = turns.map(([name, content], i) => {
    return makeEvent({ content, name, type: 'message', sessionId: 's1', ts: Date.UTC(2025, 0, 1 + i) });
  });
  const ids = await s.appendEvents(events);
  return s.getEvents('tenant-a', ids.map((r) => r.id));
}

const names = async (s: Storage, ids: string[]) => new Map((await s.getEntities('tenant-a', ids)).map((e) => [e.id, e.name]));

describe('GraphLearner with the rules', () => {
  it('a person named in full and later by the first name is one entity (the first name is an alias; titles are not)', async () => {
    expect(firstNameAlias('Sam Ortiz', 'person')).toEqual(['Sam']);
    expect(firstNameAlias('Dr. Lim', 'person')).toEqual([]);
    expect(firstNameAlias('Umbrella Health', 'organization')).toEqual([]);
    const s = await store();
    const learner = new GraphLearner(s, clock, ruleExtractor(), 'extraction');
    await learner.learn('tenant-a', await appended(s, [[undefined, 'Sam Ortiz reports to Rita.'], [undefined, 'Sam lives in Austin.']]));
    const [sam] = await s.findEntities({ tenant: 'tenant-a', names: ['Sam'] });
    expect(sam?.name).toBe('Sam Ortiz');
    const edges = await s.queryRelations({ tenant: 'tenant-a', entityIds: [sam!.id] });
    expect(edges.map((r) => r.type).sort()).toEqual(['lives_in', 'manages']);
  });

  it('a team named in full and later by its plural last word is one entity; not a person, a place or a singular word', async () => {
    expect(groupAlias('Riverside Otters', 'organization')).toEqual(['Otters']);
    expect(groupAlias('North Shore Pelicans', 'thing')).toEqual(['Pelicans']);
    expect(groupAlias('Apex Steel', 'organization')).toEqual([]);
    expect(groupAlias('Swedish Medical Center', 'organization')).toEqual([]);
    expect(groupAlias('Jane Adams', 'person')).toEqual([]);
    expect(groupAlias('Glen Ross', 'organization')).toEqual([]);
    const s = await store();
    const learner = new GraphLearner(s, clock, ruleExtractor(), 'extraction');
    await learner.learn('tenant-a', await appended(s, [[undefined, 'Eva coaches the Riverside Otters.'], [undefined, 'Copper Mill sponsors the Otters.']]));
    const [otters] = await s.findEntities({ tenant: 'tenant-a', names: ['Otters'] });
    expect(otters?.name).toBe('Riverside Otters');
    const edges = await s.queryRelations({ tenant: 'tenant-a', entityIds: [otters!.id] });
    expect(edges.map((r) => r.type).sort()).toEqual(['coaches', 'sponsors']);
  });

  it('stores entities once per name and directed relations citing their events; a move closes the old home', async () => {
    const s = await store();
    const learner = new GraphLearner(s, clock, ruleExtractor(), 'extraction');
    const events = await appended(s, [
      [undefined, 'Alice manages Bob.'],
      [undefined, 'Carol manages Alice.'],
      ['Bob', 'I live in Paris.'],
      ['Bob', 'Last month I moved to Berlin.'],
    ]);
    const report = await learner.learn('tenant-a', events);
    expect(report).toMatchObject({ relations: 4, closed: 1 });
    const [alice] = await s.findEntities({ tenant: 'tenant-a', names: ["Alice's"] });
    expect(alice!.provenance.eventIds).toEqual([events[0]!.id, events[1]!.id]);
    const managers = await s.queryRelations({ tenant: 'tenant-a', entityIds: [alice!.id], direction: 'in', types: ['manages'] });
    const n = await names(s, managers.flatMap((r) => [r.sourceId, r.targetId]));
    expect(managers.map((r) => `${n.get(r.sourceId)}>${n.get(r.targetId)}`)).toEqual(['Carol>Alice']);
    expect(managers[0]!.provenance.eventIds).toEqual([events[1]!.id]);
    const [bob] = await s.findEntities({ tenant: 'tenant-a', names: ['bob'] });
    const homes = await s.queryRelations({ tenant: 'tenant-a', entityIds: [bob!.id], direction: 'out', types: ['lives_in'], includeExpired: true });
    const h = await names(s, homes.map((r) => r.targetId));
    expect(homes.map((r) => [h.get(r.targetId), r.expiredAt === undefined])).toEqual([
      ['Paris', false],
      ['Berlin', true],
    ]);
    // Valid time: Bob lived in Paris when the first of his turns was written.
    const then = await s.queryRelations({ tenant: 'tenant-a', entityIds: [bob!.id], types: ['lives_in'], includeExpired: true, validAt: events[2]!.ts + 1 });
    expect(then.map((r) => h.get(r.targetId))).toEqual(['Paris']);
    // Learning the same page again reinforces instead of adding.
    expect(await learner.learn('tenant-a', events)).toMatchObject({ relations: 0 });
  });
});

describe('GraphLearner with an LLM (OpenAI-compatible protocol on loopback)', () => {
  it('asks for the knowledge_graph JSON schema and stores what the turns state, dropping invented turns and names', async () => {
    server = await startLoopback(
      fakeOpenAi(() => ({
        say: JSON.stringify({
          entities: [
            { name: 'Dana', type: 'person' },
            { name: 'Initech', type: 'organization' },
          ],
          relations: [
            { source: 'Dana', relation: 'works at', target: 'Initech', turn: 1 },
            { source: 'Dana', relation: 'manages', target: 'Nobody', turn: 1 },
            { source: 'Dana', relation: 'likes', target: 'Initech', turn: 9 },
          ],
        }),
      })),
    );
    const llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'local' }, { backoff: { baseDelayMs: 1, maxDelayMs: 2 } });
    const s = await store();
    const events = await appended(s, [['Dana', 'I have been at Initech for years now.']]);
    await new GraphLearner(s, clock, llmExtractor(llm, { fallback: ruleExtractor() }), 'llm').learn('tenant-a', events);
    const body = server.requests[0]!.body as { response_format?: { type: string; json_schema?: { name: string } }; messages: { content: string }[] };
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'knowledge_graph' } });
    expect(JSON.stringify(body.messages)).toContain('1. Dana: I have been at Initech for years now.');
    const rel = await s.queryRelations({ tenant: 'tenant-a' });
    expect(rel.map((r) => [r.type, r.confidence, r.provenance])).toEqual([['works_at', 0.8, { origin: 'llm', eventIds: [events[0]!.id], factIds: [] }]]);
    expect((await s.findEntities({ tenant: 'tenant-a' })).map((e) => e.name).sort()).toEqual(['Dana', 'Initech']);
  });

  it('falls back to the rules when the model keeps answering outside the schema', async () => {
    server = await startLoopback(fakeOpenAi(() => ({ say: '{"entities": "none"}' })));
    const llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'local' }, { backoff: { baseDelayMs: 1, maxDelayMs: 2 } });
    const s = await store();
    const events = await appended(s, [[undefined, 'Alice manages Bob.']]);
    await new GraphLearner(s, clock, llmExtractor(llm, { fallback: ruleExtractor() }), 'llm').learn('tenant-a', events);
    expect(server.requests).toHaveLength(2);
    expect((await s.queryRelations({ tenant: 'tenant-a' })).map((r) => r.type)).toEqual(['manages']);
  });
});
