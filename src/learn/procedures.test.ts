import { describe, expect, it } from 'vitest';
import type { Episode, Procedure } from '../core/types.js';
import { makeEvent, T0 } from './fixtures.test-support.js';
import { findApplicable, learnFromEpisode, recordOutcome, stepsOf, successRate } from './procedures.js';

const MIN = 60_000;

function proc(id: string, trigger: string, successCount: number, failureCount: number, over: Partial<Procedure> = {}): Procedure {
  return {
    id,
    tenant: 'acme',
    name: id,
    trigger,
    steps: ['step one', 'step two'],
    preconditions: [],
    successCount,
    failureCount,
    notes: [],
    sourceEpisodeIds: [],
    createdAt: 0,
    updatedAt: 0,
    ...over,
  };
}

const rollback = 'Roll back a bad release when error rate jumps right after a deploy';
const poolCap = 'Raise the HTTP client connection cap when requests queue at peak traffic';
const certs = 'Renew the TLS certificate when browsers report expired certificate warnings';

describe('findApplicable', () => {
  it('ranks by trigger match × Laplace-smoothed success rate: 9/10 beats 1/1 on an equal match', () => {
    const ps = [proc('p_once', poolCap, 1, 0, { name: 'pool cap' }), proc('p_proven', poolCap, 9, 1, { name: 'pool cap' }), proc('p_certs', certs, 20, 0)];
    const got = findApplicable('Requests queue inside the HTTP client at peak traffic', ps);
    expect(got.map((m) => m.procedure.id)).toEqual(['p_proven', 'p_once']);
    expect(got[0]!.successRate).toBeCloseTo(10 / 12, 5);
    expect(got[1]!.successRate).toBeCloseTo(2 / 3, 5);
    expect(got[0]!.match).toBe(got[1]!.match);
    expect(successRate({ successCount: 0, failureCount: 0 })).toBe(0.5);
  });

  it('a much better trigger match beats a slightly better record', () => {
    const got = findApplicable('Error rate jumped right after the deploy of release 5.1', [proc('p_pool', poolCap, 9, 0), proc('p_rollback', rollback, 3, 1)]);
    expect(got[0]!.procedure.id).toBe('p_rollback');
  });

  it('uses vectors when given: the mean of lexical and semantic match', () => {
    const ps = [proc('p_a', 'Rotate signing keys for the media CDN', 1, 0), proc('p_b', 'Compact the search index segments', 1, 0)];
    const vectors = new Map([
      ['p_a', Float32Array.from([1, 0, 0])],
      ['p_b', Float32Array.from([0, 1, 0])],
    ]);
    const got = findApplicable({ text: 'thumbnails return 403 from the edge', vector: Float32Array.from([0.9, 0.1, 0]) }, ps, { triggerVectors: vectors });
    expect(got.map((m) => m.procedure.id)).toEqual(['p_a']);
    expect(got[0]!.lexical).toBe(0);
    expect(got[0]!.semantic).toBeGreaterThan(0.9);
    expect(got[0]!.match).toBeCloseTo(got[0]!.semantic! / 2, 5);
  });

  it('leaves out procedures below minMatch and honours the limit', () => {
    const ps = Array.from({ length: 8 }, (_, i) => proc(`p${i}`, poolCap, i, 0));
    expect(findApplicable('Quarterly planning for the design offsite', ps)).toEqual([]);
    expect(findApplicable('requests queue at peak traffic', ps, { options: { limit: 3 } }).map((m) => m.procedure.id)).toEqual(['p7', 'p6', 'p5']);
  });
});

describe('recordOutcome', () => {
  it('counts the outcome, stamps the use and keeps the newest notes', () => {
    const p = proc('p', poolCap, 2, 1, { notes: ['n1', 'n2'] });
    const after = recordOutcome(p, false, 'cap was already at 100; the upstream was down', 5000, { maxNotes: 2 });
    expect(after).toMatchObject({ successCount: 2, failureCount: 2, lastUsedAt: 5000, updatedAt: 5000, notes: ['n2', 'cap was already at 100; the upstream was down'] });
    expect(p.failureCount).toBe(1);
    expect(recordOutcome(p, true, undefined, 6000)).toMatchObject({ successCount: 3, failureCount: 1, notes: ['n1', 'n2'] });
  });
});

describe('learnFromEpisode', () => {
  const episode: Pick<Episode, 'id' | 'outcome' | 'summary' | 'stateLabel' | 'endTs' | 'tenant' | 'agentId'> = {
    id: 'eps_1',
    outcome: 'SUCCESS',
    summary: 'summary',
    stateLabel: 'incident',
    endTs: T0 + 9 * MIN,
    tenant: 'acme',
    agentId: 'sre-bot',
  };
  const events = [
    makeEvent(1, 'message', 'Pricing lookups time out at the traffic peak.', T0),
    makeEvent(2, 'tool_call', 'kubectl get pods -n pricing', T0 + MIN, { tool: 'kubectl' }),
    makeEvent(3, 'tool_result', '6/6 pods ready', T0 + 2 * MIN),
    makeEvent(4, 'tool_call', 'grafana query http_client_pending{svc="pricing"}', T0 + 3 * MIN, { tool: 'grafana' }),
    makeEvent(5, 'tool_result', 'error: datasource unavailable', T0 + 4 * MIN),
    makeEvent(6, 'decision', 'Decision: raise max connections per host on the rates client', T0 + 5 * MIN),
    makeEvent(7, 'tool_call', 'helm upgrade pricing --set rates.maxConnsPerHost=100', T0 + 6 * MIN, { tool: 'helm' }),
    makeEvent(8, 'tool_call', 'helm upgrade pricing --set rates.maxConnsPerHost=100', T0 + 7 * MIN, { tool: 'helm' }),
    makeEvent(9, 'outcome', 'Outcome: success, p95 back to 120ms', T0 + 8 * MIN),
  ];

  it('turns a successful multi-step episode into a draft: trigger from the situation, steps that worked', () => {
    const got = learnFromEpisode(episode, events);
    expect(got.action).toBe('create');
    if (got.action !== 'create') return;
    expect(got.draft).toMatchObject({
      tenant: 'acme',
      agentId: 'sre-bot',
      trigger: 'Pricing lookups time out at the traffic peak',
      steps: ['kubectl get pods -n pricing', 'raise max connections per host on the rates client', 'helm upgrade pricing --set rates.maxConnsPerHost=100'],
      preconditions: ['state: incident'],
      successCount: 1,
      failureCount: 0,
      sourceEpisodeIds: ['eps_1'],
      lastUsedAt: T0 + 9 * MIN,
    });
    expect(got.draft.name).toBe('Pricing lookups traffic peak');
  });

  it('skips failures and single-step episodes', () => {
    expect(learnFromEpisode({ ...episode, outcome: 'FAILURE' }, events)).toEqual({ action: 'skip', reason: 'outcome is FAILURE, not SUCCESS' });
    expect(learnFromEpisode(episode, events.slice(0, 3))).toEqual({ action: 'skip', reason: '1 step(s), need ≥ 2' });
  });

  it('reinforces an existing procedure with the same trigger and steps instead of duplicating it', () => {
    const first = learnFromEpisode(episode, events);
    if (first.action !== 'create') throw new Error('expected a draft');
    const existing = [proc('prc_other', certs, 3, 0), { ...first.draft, id: 'prc_pricing', createdAt: 0, updatedAt: 0 }];
    const again = learnFromEpisode({ ...episode, id: 'eps_2' }, events, { existing });
    expect(again).toMatchObject({ action: 'reinforce', procedureId: 'prc_pricing' });
    // Same trigger, different steps: a new procedure.
    const other = learnFromEpisode({ ...episode, id: 'eps_3' }, [events[0]!, makeEvent(20, 'decision', 'Fail over to the secondary region', T0), makeEvent(21, 'decision', 'Drain the primary load balancer', T0)], { existing });
    expect(other.action).toBe('create');
  });

  it('stepsOf drops a call whose result is an error event', () => {
    expect(stepsOf([makeEvent(1, 'tool_call', 'psql -c "vacuum"', T0), makeEvent(2, 'error', 'permission denied', T0), makeEvent(3, 'decision', 'Ask the DBA', T0)])).toEqual(['Ask the DBA']);
  });
});
