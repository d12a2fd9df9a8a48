/**
 * Cases every `VectorIndex` must pass, run by each implementation's test file. Exact subjects must match a
 * brute-force float64 scan in ids and scores; approximate ones must keep every structural promise (filters,
 * ordering, never short, removals) and reach the recall floor.
 */
import { describe, expect, it } from 'vitest';
import { isEngramError } from '../../core/errors.js';
import type { VectorHit, VectorIndex, VectorSearchOptions } from '../../ports/vector-index.js';
import { bruteForce, ClusteredVectors, randomUnit, recall, seededRandom } from './synthetic.test-support.js';

export interface ContractSubject {
  /** A fresh, empty index. */
  make(dimension: number): VectorIndex;
  /** Whether results must equal the brute-force answer. */
  exact: boolean;
  /** Vectors to load for the bulk cases (enough to cross an ANN threshold, when the subject has one). */
  bulkSize: number;
  /** Brings the index to a steady state after bulk loading (e.g. finishes a background build). */
  settle?(index: VectorIndex): void;
}

const SCORE_TOLERANCE = 1e-5;

class Reference {
  readonly vectors = new Map<number, Float32Array>();
  constructor(readonly index: VectorIndex) {}

  add(id: number, v: Float32Array): void {
    this.index.add(id, v);
    this.vectors.set(id, v);
  }

  remove(id: number): void {
    this.index.remove(id);
    this.vectors.delete(id);
  }

  truth(query: Float32Array, k: number, opts: VectorSearchOptions = {}): VectorHit[] {
    const keep = (id: number) => (!opts.allowed || opts.allowed.has(id)) && (!opts.accept || opts.accept(id));
    return bruteForce(this.vectors, query, k, keep);
  }
}

function expectSameHits(got: VectorHit[], want: VectorHit[]): void {
  expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
  got.forEach((h, i) => expect(Math.abs(h.score - want[i]!.score)).toBeLessThan(SCORE_TOLERANCE));
}

function expectWellFormed(got: VectorHit[], ref: Reference, query: Float32Array, k: number, opts: VectorSearchOptions = {}): void {
  const eligible = ref.truth(query, Number.MAX_SAFE_INTEGER, opts);
  expect(got.length).toBe(Math.min(k, eligible.length));
  expect(new Set(got.map((h) => h.id)).size).toBe(got.length);
  const eligibleScore = new Map(eligible.map((h) => [h.id, h.score]));
  for (let i = 0; i < got.length; i++) {
    const h = got[i]!;
    expect(eligibleScore.has(h.id)).toBe(true);
    expect(Math.abs(h.score - eligibleScore.get(h.id)!)).toBeLessThan(SCORE_TOLERANCE);
    if (i > 0) expect(h.score).toBeLessThanOrEqual(got[i - 1]!.score);
  }
}

function expectAnswer(subject: ContractSubject, ref: Reference, query: Float32Array, k: number, opts: VectorSearchOptions = {}): void {
  const got = ref.index.search(query, k, opts);
  expectWellFormed(got, ref, query, k, opts);
  if (subject.exact) expectSameHits(got, ref.truth(query, k, opts));
}

function expectValidation(fn: () => unknown, path: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(isEngramError(caught, 'VALIDATION')).toBe(true);
  if (isEngramError(caught)) expect(caught.issues.map((i) => i.path)).toContain(path);
}

export function vectorIndexContract(name: string, subject: ContractSubject): void {
  describe(`${name}: VectorIndex contract`, () => {
    const dim = 48;

    function loaded(n = subject.bulkSize, seed = 7): { ref: Reference; gen: ClusteredVectors } {
      const gen = new ClusteredVectors(dim, n, { seed });
      const ref = new Reference(subject.make(dim));
      for (let i = 0; i < n; i++) ref.add(i * 3 + 1, gen.next());
      subject.settle?.(ref.index);
      return { ref, gen };
    }

    it('returns nothing from an empty index or for k ≤ 0', () => {
      const index = subject.make(dim);
      const q = randomUnit(dim, seededRandom(1));
      expect(index.search(q, 10)).toEqual([]);
      index.add(1, q);
      expect(index.search(q, 0)).toEqual([]);
      expect(index.search(q, -3)).toEqual([]);
      expect(index.search(q, Number.NaN)).toEqual([]);
      expect(index.search(q, 5)).toHaveLength(1);
    });

    it('rejects wrong dimensions, non-finite entries and non-integer ids with VALIDATION naming the field', () => {
      const index = subject.make(dim);
      expectValidation(() => index.add(1, new Float32Array(dim + 1)), 'vector');
      expectValidation(() => index.search(new Float32Array(dim - 1), 3), 'query');
      const bad = randomUnit(dim, seededRandom(2));
      bad[5] = Number.NaN;
      expectValidation(() => index.add(1, bad), 'vector.5');
      expectValidation(() => index.add(1.5, randomUnit(dim, seededRandom(3))), 'id');
      expect(index.size).toBe(0);
    });

    it('answers like a brute-force scan for many k, including k above the size', () => {
      const { ref, gen } = loaded();
      for (let q = 0; q < 12; q++) {
        const query = gen.next();
        for (const k of [1, 10, 57]) expectAnswer(subject, ref, query, k);
      }
      const small = new Reference(subject.make(dim));
      for (let i = 0; i < 5; i++) small.add(i, gen.next());
      expectAnswer(subject, small, gen.next(), 50);
    });

    it('reaches recall@10 ≥ 0.9 against the exact answer', () => {
      const { ref, gen } = loaded();
      let total = 0;
      const queries = 40;
      for (let q = 0; q < queries; q++) {
        const query = gen.next();
        total += recall(ref.index.search(query, 10), ref.truth(query, 10));
      }
      expect(total / queries).toBeGreaterThanOrEqual(subject.exact ? 1 : 0.9);
    });

    it('honours allowed sets of every size, including ids the index does not hold', () => {
      const { ref, gen } = loaded();
      const ids = [...ref.vectors.keys()];
      const rand = seededRandom(11);
      for (const fraction of [0.005, 0.05, 0.5, 1]) {
        const allowed = new Set(ids.filter(() => rand() < fraction));
        allowed.add(-999);
        allowed.add(10 ** 9);
        for (let q = 0; q < 4; q++) expectAnswer(subject, ref, gen.next(), 10, { allowed });
      }
      expectAnswer(subject, ref, gen.next(), 10, { allowed: new Set() });
      expectAnswer(subject, ref, gen.next(), 10, { allowed: new Set([ids[3]!, ids[4]!]) });
    });

    it('applies accept, alone and with allowed, and never returns fewer hits than exist', () => {
      const { ref, gen } = loaded();
      const ids = [...ref.vectors.keys()];
      const rare = new Set(ids.filter((_, i) => i % 97 === 0));
      const calls: number[] = [];
      const accept = (id: number) => {
        calls.push(id);
        return rare.has(id);
      };
      for (let q = 0; q < 4; q++) expectAnswer(subject, ref, gen.next(), 10, { accept });
      expect(calls.length).toBeGreaterThan(0);
      const half = (id: number) => id % 2 === 0;
      for (let q = 0; q < 4; q++) expectAnswer(subject, ref, gen.next(), 10, { accept: half });
      const allowed = new Set(ids.slice(0, Math.ceil(ids.length / 3)));
      for (let q = 0; q < 4; q++) expectAnswer(subject, ref, gen.next(), 10, { allowed, accept: half });
      expectAnswer(subject, ref, gen.next(), 10, { accept: () => false });
      const only = ids[ids.length - 1]!;
      expect(ref.index.search(gen.next(), 10, { accept: (id) => id === only }).map((h) => h.id)).toEqual([only]);
    });

    it('forgets removed ids and scores replaced vectors by their new value', () => {
      const { ref, gen } = loaded();
      const ids = [...ref.vectors.keys()];
      const removed = ids.filter((_, i) => i % 5 === 0);
      for (const id of removed) ref.remove(id);
      ref.remove(-12345);
      expect(ref.index.size).toBe(ids.length - removed.length);
      for (const id of removed.slice(0, 20)) expect(ref.index.has(id)).toBe(false);
      const target = gen.next();
      const replaced = ids[1]!;
      ref.add(replaced, target);
      expect(ref.index.size).toBe(ids.length - removed.length);
      subject.settle?.(ref.index);
      const top = ref.index.search(target, 3);
      expect(top[0]!.id).toBe(replaced);
      expect(top[0]!.score).toBeCloseTo(1, 5);
      const gone = new Set(removed);
      for (let q = 0; q < 8; q++) {
        const query = gen.next();
        const hits = ref.index.search(query, 25);
        expect(hits.some((h) => gone.has(h.id))).toBe(false);
        expectAnswer(subject, ref, query, 25);
      }
    });

    it('keeps answering correctly while growing, shrinking and after clear', () => {
      const gen = new ClusteredVectors(dim, 3000, { seed: 5 });
      const ref = new Reference(subject.make(dim));
      for (let i = 0; i < 3000; i++) {
        ref.add(i, gen.next());
        if (i % 4 === 3) ref.remove(i - 2);
        if (i % 700 === 699) expectAnswer(subject, ref, gen.next(), 10);
      }
      ref.index.clear();
      ref.vectors.clear();
      expect(ref.index.size).toBe(0);
      expect(ref.index.search(gen.next(), 5)).toEqual([]);
      ref.add(42, gen.next());
      expect(ref.index.search(gen.next(), 5).map((h) => h.id)).toEqual([42]);
    });

    it('accepts negative and large ids and a query that is a view into a larger buffer', () => {
      const gen = new ClusteredVectors(dim, 200, { seed: 9 });
      const ref = new Reference(subject.make(dim));
      const big = Number.MAX_SAFE_INTEGER - 7;
      ref.add(-5, gen.next());
      ref.add(big, gen.next());
      for (let i = 0; i < 200; i++) ref.add(i, gen.next());
      const buffer = new Float32Array(dim * 3);
      const query = gen.next();
      buffer.set(query, dim);
      const view = buffer.subarray(dim, 2 * dim);
      expectSameHits(ref.index.search(view, 10), ref.index.search(query, 10));
      expectAnswer(subject, ref, view, 10);
      expect(ref.index.has(-5) && ref.index.has(big)).toBe(true);
      expect(ref.index.search(ref.vectors.get(big)!, 1)[0]!.id).toBe(big);
      expect(ref.index.search(ref.vectors.get(-5)!, 1)[0]!.id).toBe(-5);
    });
  });
}
