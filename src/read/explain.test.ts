import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseContextConfig } from '../core/config.js';
import type { Embedder } from '../ports/embedder.js';
import { buildContext } from './context.js';
import { embedWith, indexPending, newEvent, openTestStore, putFacts, readDeps, realEmbedder, type TestStore } from './e2e.test-support.js';
import { DropLog, EXCERPT_CHARS, retrievedItems } from './explain.js';
import { candidate, makeDoc, T0 } from './fixtures.test-support.js';

const c = (refId: string, final: number, text = `text of ${refId}`) => candidate(makeDoc({ refId, text }), { final });

describe('DropLog', () => {
  it('drops what went in and did not come out, first reason wins, best score first', () => {
    const log = new DropLog();
    const [a, b, d, e] = [c('a', 0.9), c('b', 0.4), c('d', 0.7), c('e', 0.2)];
    log.step('dedupe', [a, b, d, e], ['a', 'd', 'e']);
    log.step('mmr', [a, d, e, b], ['a']);
    log.step('budget', [a], ['a']);
    expect(log.list().map((x) => [x.id, x.reason])).toEqual([
      ['d', 'mmr'],
      ['b', 'dedupe'],
      ['e', 'mmr'],
    ]);
    expect(log.list()[0]!.scores.final).toBe(0.7);
  });

  it('does not list what was handed out in the end, though an early step left it out', () => {
    const log = new DropLog();
    const [a, b] = [c('a', 0.9), c('b', 0.4)];
    log.step('floor', [a, b], ['a']);
    log.settle([a, b], [a, b], [{ id: 'a' }, { id: 'b' }]); // b came back as a hop
    expect(log.list()).toEqual([]);
  });

  it('keeps an excerpt of the text, scrubbed when asked', () => {
    const long = `Call Jane at jane@example.com ${'x'.repeat(400)}`;
    const log = new DropLog((t) => t.replace(/\S+@\S+/g, '[email]'));
    log.step('floor', [c('a', 0.1, long)], []);
    const [d] = log.list();
    expect(d!.text.length).toBeLessThanOrEqual(EXCERPT_CHARS);
    expect(d!.text).toMatch(/^Call Jane at \[email\] x+…$/);
  });

  it('retrievedItems keeps id, kind, section and every score (outcome null when absent)', () => {
    const scores = { vector: 0.5, lexical: null, relevance: 0.5, recency: 1, importance: 0.5, confidence: 1, rerank: null, final: 0.6 };
    const item = { id: 'fct_1', kind: 'fact' as const, section: 'semantic', text: 't', truncated: false, provenance: {} as never, scores };
    expect(retrievedItems([item])).toEqual([{ id: 'fct_1', kind: 'fact', section: 'semantic', scores: { ...scores, outcome: null } }]);
    const lifted = { ...item, id: 'epi_1', kind: 'episode' as const, scores: { ...scores, corrected: 0.05, final: 0.65 } };
    expect(retrievedItems([lifted])[0]!.scores).toEqual({ ...scores, outcome: null, corrected: 0.05, final: 0.65 });
    const graphed = { ...item, id: 'evt_1', kind: 'event' as const, scores: { ...scores, graph: 0.01, final: 0.61 } };
    expect(retrievedItems([graphed])[0]!.scores).toEqual({ ...scores, outcome: null, graph: 0.01, final: 0.61 });
    const moved = { ...item, id: 'epi_2', kind: 'episode' as const, scores: { ...scores, situation: -0.02, final: 0.58 } };
    expect(retrievedItems([moved])[0]!.scores).toEqual({ ...scores, outcome: null, situation: -0.02, final: 0.58 });
  });
});

describe('buildContext with explain', () => {
  let embedder: Embedder;
  let store: TestStore;

  beforeAll(async () => {
    embedder = await realEmbedder();
  });
  afterAll(async () => embedder.close());
  beforeEach(async () => {
    store = await openTestStore(embedder.model, embedder.dimension);
    await store.storage.appendEvents(
      Array.from({ length: 8 }, (_, i) => newEvent({ tenant: 't1', sessionId: 's1', content: `Rollback step ${i}: run kubectl rollout undo for service ${i} and watch the error rate`, ts: T0 + i * 1000 })),
    );
    await putFacts(store.storage, [
      { tenant: 't1', text: 'Rollbacks use kubectl rollout undo, then kubectl rollout status.', source: 'runbook.md' },
      { tenant: 't1', text: 'Rollbacks use kubectl rollout undo, then kubectl rollout status.', source: 'runbook.md', key: 'copy' },
    ]);
    await indexPending(store.storage, embedder);
  });
  afterEach(async () => store.close());

  it('lists every candidate left out with a reason, none of them handed out; the record keeps each item’s scores', async () => {
    const deps = readDeps(store.storage, T0 + 60_000, embedWith(embedder));
    const config = parseContextConfig({ explain: true, episodic_window: { mode: 'none' }, semantic_retrieval: { top_k: 4 }, merge_policy: { token_budget: 60, dedupe: 'hash' } });
    const r = await buildContext(deps, { tenant: 't1', query: 'how do I roll back a service?', config });
    const dropped = r.droppedItems!;
    const reasons = new Set(dropped.map((d) => d.reason));
    expect(reasons.has('mmr')).toBe(true);
    expect(reasons.has('budget')).toBe(true);
    expect(reasons.has('dedupe')).toBe(true);
    expect(dropped.filter((d) => d.reason === 'budget')).toHaveLength(r.dropped);
    const shown = new Set(r.items.map((i) => i.id));
    expect(dropped.filter((d) => shown.has(d.id))).toEqual([]);
    expect(new Set(dropped.map((d) => d.id)).size).toBe(dropped.length);

    const rec = await store.storage.getRetrieval('t1', r.retrievalId);
    expect(rec!.items!.map((i) => i.id)).toEqual(r.items.map((i) => i.id));
    expect(rec!.items![0]!.scores.final).toBe(r.items[0]!.scores.final);

    const plainConfig = parseContextConfig({ episodic_window: { mode: 'none' } });
    const plain = await buildContext(deps, { tenant: 't1', query: 'how do I roll back a service?', config: plainConfig });
    expect(plain.droppedItems).toBeUndefined();
  });

  it('names the relevance floor for what an off-topic query found', async () => {
    const deps = readDeps(store.storage, T0 + 60_000, embedWith(embedder));
    const config = parseContextConfig({ explain: true, episodic_window: { mode: 'none' } });
    const r = await buildContext(deps, { tenant: 't1', query: 'quantum chromodynamics lattice gauge', config });
    // Nothing, or a few items marked as weak matches (floor.ts); the rest is dropped by the floor.
    expect(r.items.length).toBeLessThanOrEqual(config.semantic_retrieval.relevance_floor.weak_items);
    for (const i of r.items) expect(i.scores.weak).toBe(true);
    expect(r.droppedItems!.length).toBeGreaterThan(0);
    expect(new Set(r.droppedItems!.map((d) => d.reason))).toEqual(new Set(['floor']));
  });

  it('names the stale side of a settled conflict, as the conflict note does', async () => {
    const [old] = await putFacts(store.storage, [
      { tenant: 't1', key: 'strategy-a', text: 'The payments service deploys with blue-green.', subject: 'payments service', predicate: 'deploy strategy', value: 'blue-green', recordedAt: T0 - 86_400_000 },
      { tenant: 't1', key: 'strategy-b', text: 'The payments service deploys with canary.', subject: 'payments service', predicate: 'deploy strategy', value: 'canary', recordedAt: T0 },
    ]);
    await indexPending(store.storage, embedder);
    const deps = readDeps(store.storage, T0 + 60_000, embedWith(embedder));
    const config = parseContextConfig({ explain: true, episodic_window: { mode: 'none' }, conflict_resolution: 'prefer_fresh', semantic_retrieval: { kinds: ['fact'] } });
    const r = await buildContext(deps, { tenant: 't1', query: 'how does the payments service deploy?', config });
    expect(r.conflicts.flatMap((n) => n.droppedIds)).toContain(old!.id);
    expect(r.droppedItems!.find((d) => d.id === old!.id)).toMatchObject({ reason: 'conflict', kind: 'fact', text: 'The payments service deploys with blue-green.' });
  });
});
