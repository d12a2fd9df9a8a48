import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngramError } from '../core/errors.js';
import type { Fact } from '../core/types.js';
import {
  applyEvidence,
  contradictingEpisodeIds,
  evidenceWeight,
  factFieldsFromStats,
  initialStats,
  needsRevision,
  planRevision,
  posteriorMean,
  statsFromEvidence,
  statsFromFact,
  supportingEpisodeIds,
  type Evidence,
} from './confidence.js';

const support = (id: string, weight?: number): Evidence => ({ episodeId: id, polarity: 'support', weight });
const contradict = (id: string, weight?: number): Evidence => ({ episodeId: id, polarity: 'contradict', weight });

function heuristicFact(over: Partial<Fact> = {}): Fact {
  return {
    id: 'fct_v1',
    key: 'fct_v1',
    version: 1,
    kind: 'heuristic',
    text: 'When checkout 503s appear at peak traffic, check the HTTP client connection cap.',
    tags: [],
    pii: false,
    piiReport: { scrubbed: false, counts: {} },
    metadata: { topic: 'capacity' },
    confidence: 0.666667,
    supportCount: 0,
    contradictCount: 0,
    importance: 0.6,
    recordedAt: 1000,
    contentHash: 'hash-v1',
    provenance: { origin: 'extraction', episodeIds: ['eps_a'] },
    tenant: 'acme',
    ...over,
  };
}

describe('confidence formula', () => {
  it('starts at the origin prior and moves with weighted evidence: (α0 + Σw⁺) / (α0 + β0 + Σw⁺ + Σw⁻)', () => {
    const s0 = initialStats('extraction');
    expect(s0.confidence).toBeCloseTo(2 / 3, 5);
    expect(initialStats('user').confidence).toBeCloseTo(0.8, 5);
    const s1 = applyEvidence(s0, [support('e1'), support('e2'), support('e3', 0.5), contradict('e4', 0.25)]);
    expect(s1.support).toBeCloseTo(2.5, 6);
    expect(s1.contradict).toBeCloseTo(0.25, 6);
    expect(s1.confidence).toBeCloseTo((2 + 2.5) / (3 + 2.5 + 0.25), 5);
    expect(s0.support).toBe(0); // input untouched
  });

  it('counts each episode once, and an episode that changes sides moves its weight', () => {
    const s = applyEvidence(initialStats('extraction'), [support('e1'), support('e2')]);
    expect(applyEvidence(s, [support('e1')])).toEqual(s);
    const flipped = applyEvidence(s, [contradict('e1')]);
    expect(flipped.support).toBe(1);
    expect(flipped.contradict).toBe(1);
    expect(supportingEpisodeIds(flipped)).toEqual(['e2']);
    expect(contradictingEpisodeIds(flipped)).toEqual(['e1']);
  });

  it('rejects weights outside (0, 1] naming the evidence index', () => {
    const e = (() => {
      try {
        applyEvidence(initialStats('user'), [support('a'), contradict('b', 1.5)]);
      } catch (err) {
        return err;
      }
    })() as EngramError;
    expect(e).toBeInstanceOf(EngramError);
    expect(e.issues[0]!.path).toBe('evidence.1.weight');
  });

  it('weights episodes by how clearly they speak', () => {
    expect(evidenceWeight({ outcome: 'FAILURE', corrections: [] })).toBe(1);
    expect(evidenceWeight({ outcome: 'PARTIAL', corrections: [] })).toBe(0.5);
    expect(evidenceWeight({ outcome: 'UNKNOWN', corrections: [] })).toBe(0.25);
    expect(evidenceWeight({ outcome: 'UNKNOWN', corrections: ['it was the cache'] })).toBe(1);
  });

  it('property: support never lowers confidence, contradiction never raises it, and it stays in (0, 1)', () => {
    const ev = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), support: fc.boolean(), w: fc.double({ min: 0.01, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(ev, { maxLength: 8 }), fc.double({ min: 0.01, max: 1, noNaN: true }), (xs, w) => {
        const s = applyEvidence(initialStats('extraction'), xs.map((x) => ({ episodeId: x.id, polarity: x.support ? 'support' : 'contradict', weight: x.w })));
        const up = applyEvidence(s, [support('new', w)]);
        const down = applyEvidence(s, [contradict('new', w)]);
        expect(up.confidence).toBeGreaterThanOrEqual(s.confidence - 1e-6);
        expect(down.confidence).toBeLessThanOrEqual(s.confidence + 1e-6);
        expect(s.confidence).toBeGreaterThan(0);
        expect(s.confidence).toBeLessThan(1);
        expect(s.confidence).toBeCloseTo(posteriorMean(s.alpha0, s.beta0, s.support, s.contradict), 5);
      }),
    );
  });
});

describe('revision', () => {
  it('a heuristic contradicted enough gets a new version with lower confidence; the old one is unchanged', () => {
    const v1 = heuristicFact();
    let stats = applyEvidence(statsFromFact(v1), [support('eps_a')]);
    expect(stats.confidence).toBeCloseTo(0.75, 5);
    stats = applyEvidence(stats, [contradict('eps_b')]);
    expect(stats.confidence).toBeCloseTo(0.6, 5);
    expect(needsRevision(stats)).toBe(false);
    stats = applyEvidence(stats, [contradict('eps_c'), contradict('eps_d')]);
    expect(stats.confidence).toBeCloseTo(3 / 7, 5);
    expect(needsRevision(stats)).toBe(true);

    const before = structuredClone(v1);
    const plan = planRevision(v1, stats, { id: 'fct_v2', now: 5000, text: 'When 503s start at a release with flat traffic, suspect the release first.' });
    expect(v1).toEqual(before);
    expect(plan.close).toEqual({ id: 'fct_v1', expiredAt: 5000 });
    expect(plan.next).toMatchObject({
      id: 'fct_v2',
      key: 'fct_v1',
      version: 2,
      supersedes: 'fct_v1',
      supportCount: 1,
      contradictCount: 3,
      recordedAt: 5000,
      text: 'When 503s start at a release with flat traffic, suspect the release first.',
    });
    expect(plan.next.confidence).toBeLessThan(v1.confidence);
    expect(plan.next.contentHash).not.toBe(v1.contentHash);
    expect(plan.next.metadata).toMatchObject({ topic: 'capacity', revisedFrom: 'fct_v1' });
    expect(plan.next.provenance.episodeIds).toEqual(['eps_a', 'eps_b', 'eps_c', 'eps_d']);

    // The new version carries its evidence; it is not revised again until new contradictions arrive.
    const v2Stats = statsFromFact(plan.next);
    expect(v2Stats.confidence).toBeCloseTo(stats.confidence, 5);
    expect(needsRevision(v2Stats)).toBe(false);
    expect(needsRevision(applyEvidence(v2Stats, [support('eps_e')]))).toBe(false);
    expect(needsRevision(applyEvidence(v2Stats, [contradict('eps_f')]))).toBe(true);
  });

  it('keeps the text and hash when no revised text is given', () => {
    const v1 = heuristicFact();
    const stats = applyEvidence(statsFromFact(v1), [contradict('x'), contradict('y')]);
    const plan = planRevision(v1, stats, { id: 'fct_v2', now: 9 });
    expect(plan.next.text).toBe(v1.text);
    expect(plan.next.contentHash).toBe(v1.contentHash);
    expect(plan.next.confidence).toBeCloseTo(0.4, 5);
  });

  it('the threshold is configurable', () => {
    const s = applyEvidence(initialStats('extraction'), [contradict('x')]); // 2/4 = 0.5
    expect(needsRevision(s)).toBe(false);
    expect(needsRevision(s, { revisionThreshold: 0.6 })).toBe(true);
  });

  it('a fact without stored stats is read from its counts at its origin prior', () => {
    const s = statsFromFact(heuristicFact({ supportCount: 2, contradictCount: 1, metadata: {} }));
    expect(s.confidence).toBeCloseTo(4 / 6, 5);
    expect(needsRevision(applyEvidence(s, [contradict('z'), contradict('w')]))).toBe(false); // 4/8 is not below 0.5
    expect(needsRevision(applyEvidence(s, [contradict('z'), contradict('w'), contradict('v')]))).toBe(true);
    const fields = factFieldsFromStats({ metadata: { a: 1 } }, s);
    expect(fields).toMatchObject({ supportCount: 2, contradictCount: 1, metadata: { a: 1 } });
    expect(statsFromFact({ ...heuristicFact(), ...fields })).toEqual(s);
  });

  it('reads stats from storage evidence rows: the latest row per episode wins, rows up to the version count as known', () => {
    const v2 = heuristicFact({ id: 'fct_v2', version: 2, recordedAt: 100 });
    const rows = [
      { episodeId: 'a', polarity: 'support' as const, weight: 1, at: 10 },
      { episodeId: 'b', polarity: 'contradict' as const, weight: 1, at: 20 },
      { episodeId: 'c', polarity: 'contradict' as const, weight: 1, at: 30 },
      { episodeId: 'a', polarity: 'contradict' as const, weight: 0.5, at: 90 },
    ];
    const s = statsFromEvidence(v2, rows);
    expect(s).toMatchObject({ support: 0, contradict: 2.5, contradictAtVersion: 2.5 });
    expect(s.confidence).toBeCloseTo(2 / 5.5, 5);
    expect(needsRevision(s)).toBe(false); // nothing new since this version
    const later = statsFromEvidence(v2, [...rows, { episodeId: 'd', polarity: 'contradict', weight: 1, at: 150 }]);
    expect(later.contradictAtVersion).toBe(2.5);
    expect(needsRevision(later)).toBe(true);
  });
});
