import { describe, expect, it } from 'vitest';
import { DocAttributes, Interner, type DocAttrInput } from './doc-attributes.js';

const attrs = (i: number): DocAttrInput => ({
  kind: i % 3 === 0 ? 'fact' : 'event',
  userId: i % 2 === 0 ? `u${i % 5}` : null,
  agentId: null,
  sessionId: `s${i % 7}`,
  taskId: null,
  expiresAt: i % 11 === 0 ? 1_000 : null,
});

/** Which of `ids` pass a few predicates, as one comparable list. */
function verdicts(t: DocAttributes, ids: number[]): boolean[] {
  const preds = [
    t.compile(undefined, undefined, 2_000),
    t.compile({ userId: 'u2' }, undefined, 0),
    t.compile({ sessionId: 's3' }, ['fact'], 0),
    t.compile({ layers: { userId: 'u4', sessionId: 's1' } }, undefined, 0),
  ];
  return preds.flatMap((p) => ids.map((id) => (p ? t.accepts(id, p) : false)));
}

describe('DocAttributes state', () => {
  // Ids out of order, as a table that saw updates exports them.
  const ids = Array.from({ length: 300 }, (_, i) => (i * 37) % 301 + 1);
  const probe = Array.from({ length: 320 }, (_, i) => i);

  it('restores into an empty table (ids by binary search) and into a used one alike, and keeps changing like the original', () => {
    const a = new DocAttributes(new Interner());
    for (const id of ids) a.set(id, attrs(id));
    const fresh = new DocAttributes(new Interner());
    fresh.importState(a.exportState());
    const used = new DocAttributes(new Interner());
    used.set(1, attrs(99));
    used.set(999, attrs(5));
    used.importState(a.exportState());
    used.delete(999);
    for (const t of [fresh, used]) expect(verdicts(t, probe)).toEqual(verdicts(a, probe));
    for (const t of [a, fresh, used]) {
      t.set(38, attrs(2)); // a restored doc changes
      t.delete(75); // one is removed
      t.set(75, attrs(4)); // and comes back
      t.delete(112);
      t.set(5000, attrs(8)); // a new one
    }
    for (const t of [fresh, used]) expect(verdicts(t, [...probe, 5000])).toEqual(verdicts(a, [...probe, 5000]));
    const again = new DocAttributes(new Interner());
    again.importState(fresh.exportState());
    expect(verdicts(again, [...probe, 5000])).toEqual(verdicts(a, [...probe, 5000]));
  });

  it('refuses a state that names a doc twice or a string it does not hold', () => {
    const a = new DocAttributes(new Interner());
    a.set(1, attrs(1));
    a.set(2, attrs(2));
    const st = a.exportState();
    expect(() => new DocAttributes(new Interner()).importState({ ...st, ids: Float64Array.of(2, 2) })).toThrow(/appears twice/);
    for (const bad of [st.strings.length, -2]) {
      const codes = Int32Array.from(st.codes);
      codes[6] = bad;
      expect(() => new DocAttributes(new Interner()).importState({ ...st, codes })).toThrow(/unknown string/);
    }
  });

  it('restores a doc without a kind as the empty kind, and absent scope fields as absent', () => {
    const a = new DocAttributes(new Interner());
    a.set(1, attrs(1));
    const st = a.exportState();
    const codes = Int32Array.from(st.codes);
    codes[0] = -1;
    const b = new DocAttributes(new Interner());
    b.importState({ ...st, codes });
    expect(b.accepts(1, b.compile(undefined, [''], 0)!)).toBe(true);
    expect(b.accepts(1, b.compile({ sessionId: 's1' }, undefined, 0)!)).toBe(true);
    expect(b.accepts(1, b.compile({ userId: 'u1' }, undefined, 0) ?? { scope: [[0, -5]], now: 0 })).toBe(false);
  });
});
