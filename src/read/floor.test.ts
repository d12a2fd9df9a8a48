/**
 * The relevance floor and fair credit, end to end on a real memory (SQLite + USE-lite), plus the pure rules.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseContextConfig } from '../core/config.js';
import { openTestMemory, type TestMemory } from '../../testing/memory-fixture.js';
import { applyFloor, coverage, evidenceOf, itemPasses, judgeFloor, queryPasses, queryStems, queryVerdict, type RelevanceFloor } from './floor.js';

const FLOOR: RelevanceFloor = parseContextConfig({}).semantic_retrieval.relevance_floor;

describe('floor rules', () => {
  const q = { stems: queryStems('node 22 upgrade broke the tests'), vector: Float32Array.from([1, 0]) };
  it('admits an item by cosine or by coverage, and a query by its best candidate', () => {
    expect(coverage(q.stems, 'The Node 22 upgrade needs OpenSSL 3')).toBeGreaterThanOrEqual(0.5);
    expect(itemPasses(FLOOR, q, { cosine: 0.5, coverage: 0 })).toBe(true);
    expect(itemPasses(FLOOR, q, { cosine: 0.1, coverage: 0.5 })).toBe(true);
    expect(itemPasses(FLOOR, q, { cosine: 0.1, coverage: 0 })).toBe(false);
    expect(queryPasses(FLOOR, q, [{ cosine: 0.3, coverage: 0 }, { cosine: 0.38, coverage: 0 }])).toBe(false);
    expect(queryPasses(FLOOR, q, [{ cosine: 0.3, coverage: 0 }, { cosine: 0.5, coverage: 0 }])).toBe(true);
    // Any content word of the query in a candidate admits the query by default; a higher share can be asked for.
    expect(queryPasses(FLOOR, q, [{ cosine: 0.3, coverage: 0.2 }])).toBe(true);
    expect(queryPasses({ ...FLOOR, query_min_coverage: 0.3 }, q, [{ cosine: 0.3, coverage: 0.2 }])).toBe(false);
    expect(queryPasses({ ...FLOOR, enabled: false }, q, [])).toBe(true);
  });

  it('calls a query weak when nothing is close and at most a stray word is shared, and none when it is far and shares nothing', () => {
    // Defaults: strong from 0.42, or a shared word with a memory from 0.3, or half the query's words.
    expect(queryVerdict(FLOOR, q, [{ cosine: 0.35, coverage: 0 }])).toBe('weak');
    expect(queryVerdict(FLOOR, q, [{ cosine: 0.35, coverage: 0 }, { cosine: 0.1, coverage: 0.2 }])).toBe('strong');
    expect(queryVerdict(FLOOR, q, [{ cosine: 0.2, coverage: 0.2 }])).toBe('weak');
    expect(queryVerdict(FLOOR, q, [{ cosine: 0.2, coverage: 0.6 }])).toBe('strong');
    expect(queryVerdict(FLOOR, q, [{ cosine: 0.25, coverage: 0 }])).toBe('none');
    expect(queryVerdict({ ...FLOOR, weak_items: 0 }, q, [{ cosine: 0.35, coverage: 0 }])).toBe('none');
    // A weak query keeps the items that pass the item level; applyFloor (strong only) keeps none of them.
    const items = [0.35, 0.1];
    const view = (c: number) => ({ text: 'x', vector: Float32Array.from([c, Math.sqrt(1 - c * c)]) });
    expect(judgeFloor(FLOOR, q, items, view)).toEqual({ verdict: 'weak', items: [0.35] });
    expect(applyFloor(FLOOR, q, items, view)).toEqual([]);
    expect(judgeFloor(FLOOR, q, [0.1], view)).toEqual({ verdict: 'none', items: [] });
  });

  it('judges a case by the closer of its whole text and its opening report, when the caller has the latter', () => {
    const unit = (c: number) => Float32Array.from([c, Math.sqrt(1 - c * c)]);
    expect(evidenceOf(q, 'x', unit(0.19)).cosine).toBeCloseTo(0.19, 5);
    expect(evidenceOf(q, 'x', unit(0.19), unit(0.35)).cosine).toBeCloseTo(0.35, 5);
    expect(evidenceOf(q, 'x', unit(0.5), unit(0.35)).cosine).toBeCloseTo(0.5, 5);
    expect(evidenceOf(q, 'x', undefined, unit(0.35)).cosine).toBeCloseTo(0.35, 5);
    expect(evidenceOf({ ...q, vector: undefined }, 'x', unit(0.5), unit(0.35)).cosine).toBeNull();
    // A case far by its whole story but near by its report: none without the report, weak with it.
    const view = (c: { whole: number; start?: number }) => ({ text: 'x', vector: unit(c.whole), situation: c.start === undefined ? undefined : unit(c.start) });
    expect(judgeFloor(FLOOR, q, [{ whole: 0.19 }], view).verdict).toBe('none');
    expect(judgeFloor(FLOOR, q, [{ whole: 0.19, start: 0.35 }], view)).toEqual({ verdict: 'weak', items: [{ whole: 0.19, start: 0.35 }] });
  });

  it('falls back to any shared content word without a query vector', () => {
    const lexical = { stems: q.stems, vector: undefined };
    const items = ['Node 22 is out', 'Annual plans are refunded'];
    expect(applyFloor(FLOOR, lexical, items, (text) => ({ text, vector: undefined }))).toEqual(['Node 22 is out']);
    expect(applyFloor(FLOOR, lexical, ['Annual plans are refunded'], (text) => ({ text, vector: undefined }))).toEqual([]);
  });
});

const STORE = [
  'Annual plans are refunded in full within 30 days.',
  'Monthly plans can be cancelled at any time; no refunds for partial months.',
  'Support hours are 9:00 to 17:00 CET on weekdays.',
  'Password resets are sent to the account email and expire after one hour.',
  'Enterprise customers get a dedicated account manager.',
  'Node 22 requires OpenSSL 3 and drops some legacy crypto flags.',
  'The CI pipeline runs the integration tests on every pull request.',
];

let tm: TestMemory | undefined;
afterEach(async () => {
  await tm?.cleanup();
  tm = undefined;
});

async function store(): Promise<TestMemory> {
  tm = await openTestMemory({ learn: { engine: { background: false } } });
  for (const text of STORE) await tm.memory.remember({ text });
  await tm.memory.flush();
  return tm;
}

describe('relevance floor in getContext (on by default)', () => {
  it('gives an unrelated query nothing or a few items marked weak, and a related one its memory, unmarked', async () => {
    const { memory } = await store();
    const none = await memory.getContext('Who won the 1998 football world cup?');
    expect(none.items.filter((i) => i.section !== 'episodic_recent')).toEqual([]);
    const quantum = await memory.getContext('quantum chromodynamics lattice gauge');
    const weak = quantum.items.filter((i) => i.section !== 'episodic_recent');
    // USE-lite puts this query at 0.3–0.42 from a memory here: in the middle ground, a few items, each marked.
    expect(weak.length).toBeGreaterThan(0);
    expect(weak.length).toBeLessThanOrEqual(FLOOR.weak_items);
    expect(quantum.text).toContain('weak match');
    for (const i of weak) expect(i.scores.weak).toBe(true);
    const off = await memory.getContext('quantum chromodynamics lattice gauge', { semantic_retrieval: { relevance_floor: { enabled: false } } });
    expect(off.items.length).toBeGreaterThan(FLOOR.weak_items);
    expect(off.items.some((i) => i.scores.weak)).toBe(false);
    const refund = await memory.getContext('Can I get my money back on a yearly plan?');
    expect(refund.items.map((i) => i.text)).toContain('Annual plans are refunded in full within 30 days.');
    expect(refund.items.some((i) => i.scores.weak)).toBe(false);
  });
});

describe('fair credit in recordOutcome', () => {
  it('a FAILURE for "what went wrong with the node 22 upgrade?" leaves the refund fact alone', async () => {
    const { memory } = await store();
    const facts = await memory.storage.listFacts({ tenant: 'default', now: Date.now() + 1000 });
    const refund = facts.find((f) => f.text.startsWith('Annual plans'))!;
    // Even when the bystander is handed out (floor off), the outcome does not blame it.
    const ctx = await memory.getContext('what went wrong with the node 22 upgrade?', { semantic_retrieval: { relevance_floor: { enabled: false }, top_k: 7 } });
    expect(ctx.items.map((i) => i.id)).toContain(refund.id);
    const r = await memory.recordOutcome(ctx.retrievalId, 'FAILURE', { details: 'the tests crash on start' });
    expect(r.bystanderFactIds).toContain(refund.id);
    expect(r.facts.map((f) => f.factId)).not.toContain(refund.id);
    const after = (await memory.storage.getLiveFact('default', refund.key, Date.now() + 1000))!;
    expect(after.confidence).toBe(refund.confidence);
    expect(after.contradictCount).toBe(0);
  });

  it('with usedItemIds, only the named items are credited; an id not handed out is rejected', async () => {
    const { memory } = await store();
    const ctx = await memory.getContext('how do refunds work for annual and monthly plans?', { semantic_retrieval: { top_k: 3 } });
    const factIds = ctx.items.filter((i) => i.kind === 'fact').map((i) => i.id);
    expect(factIds.length).toBeGreaterThanOrEqual(2);
    const used = factIds[1]!;
    await expect(memory.recordOutcome(ctx.retrievalId, 'SUCCESS', { usedItemIds: ['fct_01J8ZK3V6W9X2Y4Z5A6B7C8D9E'] })).rejects.toMatchObject({ code: 'VALIDATION' });
    const r = await memory.recordOutcome(ctx.retrievalId, 'SUCCESS', { usedItemIds: [used] });
    expect(r.facts.map((f) => f.factId)).toEqual([used]);
    expect(r.facts[0]!.confidence).toBeGreaterThan(r.facts[0]!.confidenceBefore);
    expect(r.bystanderFactIds.sort()).toEqual(factIds.filter((id) => id !== used).sort());
    expect(r.links.filter((l) => l.type === 'LED_TO').map((l) => l.fromId)).toEqual([used]);
  });
});
