/**
 * Picks how a filtered search gathers candidates, from a cost model in units of "scoring one listed row in
 * JS" (Set iteration, slot lookup, a row fetched from a random place, dot product: ~2 µs at 512-d). Measured
 * at 100k × 512 on a 2-core x86 machine: usearch's SIMD scan costs ~0.05 units per row of the whole
 * matrix, an HNSW search with beam w (w = max(expansionSearch, k)) ~1.2·w units.
 */
export const COST = {
  simdRow: 0.05,
  graphPerBeam: 1.2,
  subsetRow: 1,
} as const;

/** Candidates fetched per wanted result, divided by the expected pass rate, before filtering. */
export const OVERSAMPLE = 2;
/** Pass rate assumed for an `accept` callback we know nothing about. */
export const ACCEPT_PASS_GUESS = 0.5;
/** Beyond this many candidates an HNSW search costs more than it saves (beam grows with k). */
export const MAX_GRAPH_CANDIDATES = 2048;

export interface FilteredSearchShape {
  /** Live vectors in the index. */
  size: number;
  /** Results wanted (already capped at size). */
  want: number;
  /** Size of the allowed set, when one was given. */
  allowedSize?: number;
  hasAccept: boolean;
  /** The HNSW graph is built and caught up, with this search beam. */
  graphBeam?: number;
}

export type CandidatePlan =
  | { kind: 'subset' }
  | { kind: 'graph'; candidates: number }
  | { kind: 'exact'; candidates: number };

/** How many candidates to fetch so that, at the expected pass rate, `want` of them survive the filter. */
export function oversampled(shape: FilteredSearchShape): number {
  const allowedRate = shape.allowedSize === undefined ? 1 : Math.min(1, shape.allowedSize / Math.max(1, shape.size));
  const rate = Math.max(allowedRate * (shape.hasAccept ? ACCEPT_PASS_GUESS : 1), 1e-9);
  return Math.min(shape.size, Math.ceil((shape.want * OVERSAMPLE) / rate) + shape.want);
}

export function planFilteredSearch(shape: FilteredSearchShape): CandidatePlan {
  const candidates = oversampled(shape);
  const options: { plan: CandidatePlan; cost: number }[] = [
    { plan: { kind: 'exact', candidates }, cost: shape.size * COST.simdRow },
  ];
  if (shape.allowedSize !== undefined) {
    options.push({ plan: { kind: 'subset' }, cost: shape.allowedSize * COST.subsetRow });
  }
  if (shape.graphBeam !== undefined && candidates <= MAX_GRAPH_CANDIDATES) {
    options.push({ plan: { kind: 'graph', candidates }, cost: Math.max(shape.graphBeam, candidates) * COST.graphPerBeam });
  }
  return options.reduce((best, o) => (o.cost < best.cost ? o : best)).plan;
}

/** After the first try came up short: scan the eligible ids directly when that beats a SIMD pass. */
export function subsetBeatsSimd(eligible: number, size: number): boolean {
  return eligible * COST.subsetRow <= size * COST.simdRow;
}
