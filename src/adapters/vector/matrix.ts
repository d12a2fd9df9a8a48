import { EngramError } from '../../core/errors.js';
import { IdSlots } from '../../core/id-slots.js';
import type { RowFile } from './row-file.js';

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
 * Writes `v` (from `at`, `d` entries) as i8 into `out` at `outAt`, scaled by its largest magnitude; returns the
 * factor that turns the i8 entries back into (approximately) the original values.
 */
export function quantizeRow(v: Float32Array, at: number, d: number, out: Int8Array, outAt: number): number {
  let max = 0;
  for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(v[at + j]!));
  if (max === 0) {
    out.fill(0, outAt, outAt + d);
    return 0;
  }
  const f = 127 / max;
  for (let j = 0; j < d; j++) out[outAt + j] = Math.round(v[at + j]! * f);
  return max / 127;
}

/**
 * Rows of one contiguous array keyed by integer ids, plus per-row tail norms used to bound a partial dot
 * product. Removal swaps the last row into the hole so the live rows stay dense (a SIMD scan reads `rows()` as
 * one block).
 *
 * A matrix is full precision (f32 rows in memory) until `compactTo(file)`: from then on it keeps i8 rows with a
 * per-row scale in memory (a quarter of the bytes) and the f32 rows in `file`, at the same slots; scores then
 * come from the i8 rows (candidate selection), and `fullRows` reads the f32 rows back for exact rescoring.
 */
export class VectorMatrix {
  /** Row-major vectors (f32, or i8 once compact); slots [0, size) are live. */
  data: Float32Array | Int8Array;
  /** Per slot, the factor from an i8 row back to its values (null while rows are f32). */
  scales: Float32Array | null = null;
  /** Id stored in each slot (doubles, so any safe integer id fits). */
  ids: Float64Array;
  /** Per slot: ‖x[c1..d)‖ and ‖x[c2..d)‖ for the checkpoints c1, c2 (unused when there are none). */
  tails: Float64Array;
  readonly checkpoints: readonly [number, number] | null;
  private slotOf = new IdSlots();
  private count = 0;
  private file: RowFile | null = null;

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

  /** True once the f32 rows live in a file and memory holds i8 rows. */
  get compact(): boolean {
    return this.file !== null;
  }

  /** Moves the f32 rows to `file` (rows from 0) and keeps i8 rows in memory from now on. */
  compactTo(file: RowFile): void {
    if (this.file) return;
    const d = this.dimension;
    const f32 = this.data as Float32Array;
    if (this.count > 0) file.write(0, f32.subarray(0, this.count * d));
    const cap = this.ids.length;
    const q = new Int8Array(cap * d);
    const scales = new Float32Array(cap);
    for (let slot = 0; slot < this.count; slot++) scales[slot] = quantizeRow(f32, slot * d, d, q, slot * d);
    this.data = q;
    this.scales = scales;
    this.file = file;
    for (let slot = 0; slot < this.count; slot++) this.writeTails(slot);
  }

  /** The f32 rows of `slots`, row-major in that order (from memory, or read from the file once compact). */
  fullRows(slots: readonly number[]): Float32Array {
    const d = this.dimension;
    const out = new Float32Array(slots.length * d);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (this.file) this.file.read(slot, 1, out, i);
      else out.set((this.data as Float32Array).subarray(slot * d, (slot + 1) * d), i * d);
    }
    return out;
  }

  /** Every live f32 row in slot order (a copy). */
  allFullRows(): Float32Array {
    const n = this.count * this.dimension;
    if (!this.file) return (this.data as Float32Array).slice(0, n);
    const out = new Float32Array(n);
    if (this.count > 0) this.file.read(0, this.count, out);
    return out;
  }

  /** Streams every live f32 row (slot order) to the open file `fd`; returns their CRC-32. Compact only. */
  copyFullRowsTo(fd: number): number {
    if (!this.file) throw new EngramError('ADAPTER', 'copyFullRowsTo needs a compact matrix');
    return this.file.copyTo(fd, this.count);
  }

  /**
   * Fills an empty matrix as compact from saved parts: i8 rows with their scales and tail norms (adopted, not
   * copied; `rows` must start its buffer, native scans read from there) and `file` holding the f32 rows in the
   * same slots.
   */
  adoptCompact(ids: Float64Array, rows: Int8Array, scales: Float32Array, tails: Float64Array, file: RowFile): void {
    if (this.count !== 0 || this.file) throw new EngramError('ADAPTER', 'adopt needs an empty matrix');
    const n = ids.length;
    if (rows.length !== n * this.dimension || scales.length !== n || tails.length !== n * 2) {
      throw new EngramError('ADAPTER', 'vector state: rows do not match ids');
    }
    if (rows.byteOffset !== 0) throw new EngramError('ADAPTER', 'vector state: i8 rows must start their buffer');
    this.data = rows;
    this.scales = scales;
    this.tails = tails;
    this.slotOf = IdSlots.fromSlots(ids, 'vector state');
    this.ids = Float64Array.from(ids);
    this.count = n;
    this.file = file;
  }

  /** The i8 rows, scales and tail norms of the live slots (views; a compact matrix only). */
  compactParts(): { rows: Int8Array; scales: Float32Array; tails: Float64Array } {
    if (!this.file) throw new EngramError('ADAPTER', 'compactParts needs a compact matrix');
    return {
      rows: (this.data as Int8Array).subarray(0, this.count * this.dimension),
      scales: this.scales!.subarray(0, this.count),
      tails: this.tails.subarray(0, this.count * 2),
    };
  }

  /** Closes the row file (a compact matrix is unusable afterwards). */
  close(): void {
    this.file?.close();
  }

  slot(id: number): number | undefined {
    return this.slotOf.get(id);
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** The live rows as a view starting at byte offset 0 (native code that ignores byteOffset can read it). */
  rows(): Float32Array | Int8Array {
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
    this.store(slot, vector, 0);
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
    if (this.file) {
      const d = this.dimension;
      this.file.write(0, rows);
      this.data = new Int8Array(ids.length * d);
      this.scales = new Float32Array(ids.length);
      for (let slot = 0; slot < ids.length; slot++) this.scales[slot] = quantizeRow(rows, slot * d, d, this.data, slot * d);
    } else {
      this.data = rows.byteOffset === 0 ? rows : rows.slice();
    }
    this.slotOf = IdSlots.fromSlots(ids, 'vector state');
    this.ids = Float64Array.from(ids);
    this.tails = new Float64Array(ids.length * 2);
    for (let slot = 0; slot < ids.length; slot++) this.writeTails(slot);
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
      if (this.scales) this.scales[slot] = this.scales[last]!;
      this.file?.move(last, slot);
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

  /** Writes `vector` at `slot`: in memory as is, or (compact) i8 in memory and f32 in the file. */
  private store(slot: number, vector: Float32Array, at: number): void {
    const d = this.dimension;
    if (!this.file) {
      (this.data as Float32Array).set(vector.subarray(at, at + d), slot * d);
      return;
    }
    this.scales![slot] = quantizeRow(vector, at, d, this.data as Int8Array, slot * d);
    this.file.write(slot, vector.subarray(at, at + d));
  }

  /** Tail norms of the row as scored (i8 entries times the row's scale once compact). */
  private writeTails(slot: number): void {
    if (!this.checkpoints) return;
    const [c1, c2] = this.checkpoints;
    const base = slot * this.dimension;
    const f = this.scales ? this.scales[slot]! : 1;
    let mid = 0;
    for (let j = c1; j < c2; j++) mid += (this.data[base + j]! * f) ** 2;
    let end = 0;
    for (let j = c2; j < this.dimension; j++) end += (this.data[base + j]! * f) ** 2;
    this.tails[slot * 2] = Math.sqrt(mid + end);
    this.tails[slot * 2 + 1] = Math.sqrt(end);
  }

  private grow(): void {
    const cap = Math.max(1024, this.ids.length * 2);
    const data = this.file ? new Int8Array(cap * this.dimension) : new Float32Array(cap * this.dimension);
    data.set(this.data);
    if (this.scales) {
      const scales = new Float32Array(cap);
      scales.set(this.scales);
      this.scales = scales;
    }
    const ids = new Float64Array(cap);
    ids.set(this.ids);
    const tails = new Float64Array(cap * 2);
    tails.set(this.tails);
    this.data = data;
    this.ids = ids;
    this.tails = tails;
  }
}
