import { describe, expect, it } from 'vitest';
import { isEngramError } from '../../core/errors.js';
import {
  activeVectorBackend,
  createVectorIndex,
  createVectorIndexWith,
  describeVectorIndex,
  FlatVectorIndex,
  UsearchVectorIndex,
} from './index.js';
import { ClusteredVectors } from './synthetic.test-support.js';
import { loadUsearch } from './usearch-module.js';

const usearch = loadUsearch();
const missing = () => loadUsearch('engram-no-such-native-module');

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isEngramError(e) ? `${e.code}:${e.issues.map((i) => i.path).join(',')}` : 'other';
  }
  return undefined;
}

describe('createVectorIndex', () => {
  it('returns null from the loader when the native module is not installed', () => {
    expect(missing()).toBeNull();
  });

  it('falls back to the flat scan when usearch is unavailable, and the fallback answers searches', () => {
    const index = createVectorIndexWith(16, { prefer: 'auto', annThreshold: 10 }, missing);
    expect(index).toBeInstanceOf(FlatVectorIndex);
    const gen = new ClusteredVectors(16, 100, { seed: 2 });
    const first = gen.next();
    index.add(7, first);
    for (let i = 0; i < 50; i++) index.add(100 + i, gen.next());
    expect(index.search(first, 1)[0]!.id).toBe(7);
    expect(describeVectorIndex(index)).toEqual({ backend: 'flat', mode: 'exact', size: 51, approximate: false, pending: 0 });
  });

  it('fails with UNAVAILABLE when usearch is demanded but missing', () => {
    expect(codeOf(() => createVectorIndexWith(16, { prefer: 'usearch' }, missing))).toBe('UNAVAILABLE:prefer');
  });

  it('honours prefer: flat even when usearch loads', () => {
    expect(createVectorIndex(8, { prefer: 'flat' })).toBeInstanceOf(FlatVectorIndex);
  });

  it('rejects bad options and dimensions with VALIDATION naming the field', () => {
    expect(codeOf(() => createVectorIndex(8, { annThreshold: 0 }))).toBe('VALIDATION:annThreshold');
    expect(codeOf(() => createVectorIndex(8, { hnsw: { connectivity: 1000 } }))).toBe('VALIDATION:hnsw.connectivity');
    expect(codeOf(() => createVectorIndex(8, { bogus: 1 } as never))).toBe('VALIDATION:');
    expect(codeOf(() => createVectorIndex(0))).toBe('VALIDATION:dimension');
  });

  it('reports the backend auto picks, consistent with what it builds', () => {
    const built = createVectorIndex(8);
    expect(activeVectorBackend()).toBe(built instanceof UsearchVectorIndex ? 'usearch' : 'flat');
    expect(describeVectorIndex(built).backend).toBe(activeVectorBackend());
  });

  it.runIf(usearch)('picks usearch when it loads, and describes its mode as it grows', () => {
    const index = createVectorIndex(16, { annThreshold: 50, indexing: 'inline' });
    expect(index).toBeInstanceOf(UsearchVectorIndex);
    const gen = new ClusteredVectors(16, 100, { seed: 4 });
    for (let i = 0; i < 49; i++) index.add(i, gen.next());
    expect(describeVectorIndex(index)).toMatchObject({ backend: 'usearch', mode: 'exact', approximate: false });
    index.add(49, gen.next());
    expect(describeVectorIndex(index)).toMatchObject({ backend: 'usearch', mode: 'hnsw', approximate: true, size: 50 });
  });
});
