import { describe, expect, it } from 'vitest';
import { MAX_GRAPH_CANDIDATES, oversampled, planFilteredSearch, subsetBeatsSimd } from './search-plan.js';

describe('planFilteredSearch', () => {
  it('scans a small allowed set directly, graph or not', () => {
    expect(planFilteredSearch({ size: 100_000, want: 10, allowedSize: 1000, hasAccept: true }).kind).toBe('subset');
    expect(planFilteredSearch({ size: 100_000, want: 10, allowedSize: 1000, hasAccept: true, graphBeam: 128 }).kind).toBe('subset');
  });

  it('uses the graph with oversampling for a permissive filter once a graph exists', () => {
    const plan = planFilteredSearch({ size: 100_000, want: 10, allowedSize: 50_000, hasAccept: true, graphBeam: 128 });
    expect(plan).toEqual({ kind: 'graph', candidates: oversampled({ size: 100_000, want: 10, allowedSize: 50_000, hasAccept: true }) });
    expect(plan.kind === 'graph' && plan.candidates).toBeGreaterThanOrEqual(40);
  });

  it('falls back to the SIMD scan when a selective filter would need too many graph candidates', () => {
    const plan = planFilteredSearch({ size: 1_000_000, want: 10, allowedSize: 600_000, hasAccept: false, graphBeam: 128 });
    expect(plan.kind).toBe('graph');
    const wide = planFilteredSearch({ size: 1_000_000, want: 200, allowedSize: 300_000, hasAccept: true, graphBeam: 128 });
    expect(oversampled({ size: 1_000_000, want: 200, allowedSize: 300_000, hasAccept: true })).toBeGreaterThan(MAX_GRAPH_CANDIDATES);
    expect(wide.kind).toBe('exact');
  });

  it('never asks for more candidates than vectors', () => {
    expect(oversampled({ size: 50, want: 10, allowedSize: 1, hasAccept: true })).toBe(50);
  });

  it('prefers scanning eligible ids only when that is cheaper than one SIMD pass', () => {
    expect(subsetBeatsSimd(1000, 100_000)).toBe(true);
    expect(subsetBeatsSimd(60_000, 100_000)).toBe(false);
  });
});
