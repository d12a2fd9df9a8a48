import { describe, expect, it } from 'vitest';
import { IdSlots } from './id-slots.js';

/** The same operations on a Map, to compare against. */
function check(s: IdSlots, m: Map<number, number>, probe: number[]): void {
  expect(s.size).toBe(m.size);
  for (const id of probe) expect(s.get(id)).toBe(m.get(id));
  expect(new Map(s.entries())).toEqual(m);
}

describe('IdSlots', () => {
  it('finds restored ids in slot order, ascending or not, and ids that were never there', () => {
    for (const ids of [[3, 5, 9, 40], [40, 3, 9, 5], [7]]) {
      const s = IdSlots.fromSlots(Float64Array.from(ids), 'test');
      check(s, new Map(ids.map((id, i) => [id, i])), [0, 1, 3, 4, 5, 7, 9, 40, 41]);
    }
    expect(IdSlots.fromSlots(new Float64Array(0), 'test').size).toBe(0);
  });

  it('takes only the first n ids', () => {
    const s = IdSlots.fromSlots(Float64Array.of(4, 2, 8, 1), 'test', 2);
    check(s, new Map([[4, 0], [2, 1]]), [1, 2, 4, 8]);
  });

  it('rejects an id that appears twice, sorted, unsorted and beyond what a packed key holds', () => {
    expect(() => IdSlots.fromSlots(Float64Array.of(1, 2, 2), 'v')).toThrow(/v: an id appears twice/);
    expect(() => IdSlots.fromSlots(Float64Array.of(5, 2, 5), 'v')).toThrow(/appears twice/);
    expect(() => IdSlots.fromSlots(Float64Array.of(2 ** 52, 2, 2 ** 52), 'v')).toThrow(/appears twice/);
  });

  it('keeps ids too large to pack with their slots', () => {
    const ids = [2 ** 52, 3, -7, 2 ** 51];
    check(IdSlots.fromSlots(Float64Array.from(ids), 't'), new Map(ids.map((id, i) => [id, i])), [...ids, 0, 1]);
  });

  it('behaves as a Map through sets, moves and deletes of restored and new ids', () => {
    const ids = [10, 2, 30, 4, 50, 6];
    const s = IdSlots.fromSlots(Float64Array.from(ids), 't');
    const m = new Map(ids.map((id, i) => [id, i]));
    const ops: [op: 'set' | 'delete', id: number, slot?: number][] = [
      ['set', 30, 9], // a restored id moves
      ['delete', 2],
      ['set', 2, 11], // deleted, then back
      ['set', 7, 12], // new
      ['delete', 7],
      ['delete', 99], // never there
      ['delete', 10],
      ['set', 10, 0],
      ['set', 10, 3],
    ];
    for (const [op, id, slot] of ops) {
      if (op === 'set') {
        s.set(id, slot!);
        m.set(id, slot!);
      } else {
        expect(s.delete(id)).toBe(m.delete(id));
      }
      check(s, m, [0, 2, 4, 6, 7, 10, 30, 50, 99]);
    }
    s.clear();
    check(s, new Map(), [2, 4, 10]);
  });

  it('agrees with a Map over a large shuffled restore and random changes', () => {
    let seed = 1;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const ids = Float64Array.from({ length: 5000 }, (_, i) => i * 3 + 1);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    const s = IdSlots.fromSlots(ids, 't');
    const m = new Map(Array.from(ids, (id, i) => [id, i]));
    for (let k = 0; k < 3000; k++) {
      const id = Math.floor(rand() * 16000);
      if (rand() < 0.5) {
        expect(s.delete(id)).toBe(m.delete(id));
      } else {
        s.set(id, k);
        m.set(id, k);
      }
    }
    check(s, m, Array.from({ length: 200 }, (_, i) => i * 79));
  });
});
