import { EngramError } from '../../core/errors.js';

/**
 * Where a row's dot product is split for the early-exit bound (see `QueryScorer`). Checkpoints are multiples
 * of 4 so each range keeps the 4-way unrolled loop; tiny dimensions get no checkpoints.
 */
export function checkpointsFor(dimension: number): readonly [number, number] | null {
  if (dimension < 32) return null;
  const quarter = Math.floor(dimension / 16) * 4;
  const half = Math.floor(dimension / 8) * 4;
  return [quarter, half];
}

/**
 * Rows of one contiguous Float32Array keyed by integer ids, plus per-row tail norms used to bound a partial
 * dot product. Removal swaps the last row into the hole so the live rows stay dense (a SIMD scan reads
 * `rows()` as one block).
 */
export class VectorMatrix {
  /** Row-major vectors; slots [0, size) are live. */
  data: Float32Array;
  /** Id stored in each slot (doubles, so any safe integer id fits). */
  ids: Float64Array;
  /** Per slot: ‖x[c1..d)‖ and ‖x[c2..d)‖ for the checkpoints c1, c2 (unused when there are none). */
  tails: Float64Array;
  readonly checkpoints: readonly [number, number] | null;
  private readonly slotOf = new Map<number, number>();
  private count = 0;

  constructor(
    readonly dimension: number,
    initialCapacity = 1024,
  ) {
    if (!Number.isInteger(dimension) || dimension <= 0) {
      throw new EngramError('VALIDATION', `dimension must be a positive integer, got ${dimension}`, {
        issues: [{ path: 'dimension', message: 'must be a positive integer' }],
      });
    }
    const cap = Math.max(1, initialCapacity);
    this.data = new Float32Array(cap * dimension);
    this.ids = new Float64Array(cap);
    this.tails = new Float64Array(cap * 2);
    this.checkpoints = checkpointsFor(dimension);
  }

  get size(): number {
    return this.count;
  }

  slot(id: number): number | undefined {
    return this.slotOf.get(id);
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** The live rows as a view starting at byte offset 0 (native code that ignores byteOffset can read it). */
  rows(): Float32Array {
    return this.data.subarray(0, this.count * this.dimension);
  }

  /** Writes `vector` for `id`; returns true when the id was already present (its row is overwritten). */
  set(id: number, vector: Float32Array): boolean {
    this.checkVector(vector, 'vector');
    if (!Number.isSafeInteger(id)) {
      throw new EngramError('VALIDATION', `id must be a safe integer, got ${id}`, {
        issues: [{ path: 'id', message: 'must be a safe integer' }],
      });
    }
    let slot = this.slotOf.get(id);
    const existed = slot !== undefined;
    if (slot === undefined) {
      if (this.count === this.ids.length) this.grow();
      slot = this.count++;
      this.slotOf.set(id, slot);
      this.ids[slot] = id;
    }
    this.data.set(vector, slot * this.dimension);
    this.writeTails(slot);
    return existed;
  }

  /**
   * Replaces the contents of an empty matrix with `rows` (one per id, already checked when first written; a
   * saved index file is checksummed). `rows` is adopted when it starts its buffer (native scans read from the
   * buffer start), else copied once; the next growth copies it.
   */
  adopt(ids: Float64Array, rows: Float32Array): void {
    if (this.count !== 0) throw new EngramError('ADAPTER', 'adopt needs an empty matrix');
    if (rows.length !== ids.length * this.dimension) throw new EngramError('ADAPTER', 'vector state: rows do not match ids');
    this.data = rows.byteOffset === 0 ? rows : rows.slice();
    this.ids = Float64Array.from(ids);
    this.tails = new Float64Array(ids.length * 2);
    for (let slot = 0; slot < ids.length; slot++) {
      if (this.slotOf.has(ids[slot]!)) throw new EngramError('ADAPTER', 'vector state: an id appears twice');
      this.slotOf.set(ids[slot]!, slot);
      this.writeTails(slot);
    }
    this.count = ids.length;
  }

  /** Removes `id`, moving the last row into its slot. Returns false when the id was absent. */
  delete(id: number): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const last = --this.count;
    if (slot !== last) {
      const movedId = this.ids[last]!;
      const d = this.dimension;
      this.data.copyWithin(slot * d, last * d, (last + 1) * d);
      this.tails[slot * 2] = this.tails[last * 2]!;
      this.tails[slot * 2 + 1] = this.tails[last * 2 + 1]!;
      this.ids[slot] = movedId;
      this.slotOf.set(movedId, slot);
    }
    this.slotOf.delete(id);
    return true;
  }

  clear(): void {
    this.count = 0;
    this.slotOf.clear();
  }

  /** Every live id, in slot order. */
  *idList(): IterableIterator<number> {
    for (let s = 0; s < this.count; s++) yield this.ids[s]!;
  }

  /** Throws VALIDATION unless `vector` has this matrix's dimension and only finite entries. */
  checkVector(vector: Float32Array, path: string): void {
    if (!(vector instanceof Float32Array) || vector.length !== this.dimension) {
      const got = vector instanceof Float32Array ? `${vector.length} dimensions` : 'not a Float32Array';
      throw new EngramError('VALIDATION', `${path} has ${got}, index has ${this.dimension}`, {
        issues: [{ path, message: `must be a Float32Array of length ${this.dimension}` }],
      });
    }
    for (let j = 0; j < vector.length; j++) {
      if (!Number.isFinite(vector[j]!)) {
        throw new EngramError('VALIDATION', `${path}[${j}] is not a finite number`, {
          issues: [{ path: `${path}.${j}`, message: 'must be finite' }],
        });
      }
    }
  }

  private writeTails(slot: number): void {
    if (!this.checkpoints) return;
    const [c1, c2] = this.checkpoints;
    const base = slot * this.dimension;
    let mid = 0;
    for (let j = c1; j < c2; j++) mid += this.data[base + j]! ** 2;
    let end = 0;
    for (let j = c2; j < this.dimension; j++) end += this.data[base + j]! ** 2;
    this.tails[slot * 2] = Math.sqrt(mid + end);
    this.tails[slot * 2 + 1] = Math.sqrt(end);
  }

  private grow(): void {
    const cap = Math.max(1024, this.ids.length * 2);
    const data = new Float32Array(cap * this.dimension);
    data.set(this.data);
    const ids = new Float64Array(cap);
    ids.set(this.ids);
    const tails = new Float64Array(cap * 2);
    tails.set(this.tails);
    this.data = data;
    this.ids = ids;
    this.tails = tails;
  }
}
