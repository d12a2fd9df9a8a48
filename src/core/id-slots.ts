import { EngramError } from './errors.js';

const EMPTY = new Float64Array(0);
/** Largest integer a double holds exactly, plus one. */
const EXACT = 2 ** 53;

/**
 * Id → slot for the in-process indexes (BM25, doc attributes, vector rows), built from a saved slot order
 * without a hash map: the ids of a restored index are kept sorted in one typed array (with the slot of each,
 * unless slot i holds the i-th smallest id) and found by binary search. Ids set or deleted afterwards go to a
 * small Map beside it (a changed restored id is marked gone there). A million restored ids cost 8 MB (16 when
 * their slots are out of id order) and a few milliseconds, instead of a Map's ~60 MB and several hundred.
 */
export class IdSlots {
  /** Restored ids, ascending. */
  private sorted: Float64Array = EMPTY;
  /** Slot of `sorted[i]` (null: slot i). */
  private slotAt: Int32Array | null = null;
  /** Restored entries deleted since (1), or moved to `extra`. */
  private gone: Uint8Array | null = null;
  private baseLive = 0;
  private readonly extra = new Map<number, number>();

  /**
   * The slots of `ids` (slot i holds `ids[i]`, for i < n). Ids must be distinct safe integers; `what` names
   * the caller in the error thrown when one appears twice.
   */
  static fromSlots(ids: Float64Array, what: string, n = ids.length): IdSlots {
    const s = new IdSlots();
    let ascending = true;
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      if (i > 0 && id <= ids[i - 1]!) ascending = false;
      if (id < min) min = id;
      if (id > max) max = id;
    }
    if (ascending) {
      s.sorted = ids.slice(0, n);
    } else {
      // Pack (id, slot) into one double when both fit, so a native numeric sort orders them together.
      const bits = Math.max(1, Math.ceil(Math.log2(n)));
      const scale = 2 ** bits;
      if (!(min >= 0 && (max + 1) * scale <= EXACT && ids.subarray(0, n).every(Number.isInteger))) {
        for (let i = 0; i < n; i++) {
          if (s.extra.has(ids[i]!)) throw new EngramError('ADAPTER', `${what}: an id appears twice`);
          s.extra.set(ids[i]!, i);
        }
        return s;
      }
      const keys = new Float64Array(n);
      for (let i = 0; i < n; i++) keys[i] = ids[i]! * scale + i;
      keys.sort();
      const sorted = new Float64Array(n);
      const slotAt = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const id = Math.floor(keys[i]! / scale);
        sorted[i] = id;
        slotAt[i] = keys[i]! - id * scale;
        if (i > 0 && id === sorted[i - 1]) throw new EngramError('ADAPTER', `${what}: an id appears twice`);
      }
      s.sorted = sorted;
      s.slotAt = slotAt;
    }
    s.baseLive = n;
    return s;
  }

  get size(): number {
    return this.baseLive + this.extra.size;
  }

  get(id: number): number | undefined {
    if (this.extra.size > 0) {
      const slot = this.extra.get(id);
      if (slot !== undefined) return slot;
    }
    if (this.baseLive === 0) return undefined;
    const i = this.find(id);
    if (i < 0 || this.gone?.[i]) return undefined;
    return this.slotAt ? this.slotAt[i] : i;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, slot: number): void {
    if (this.baseLive > 0 && !this.extra.has(id)) {
      const i = this.find(id);
      if (i >= 0 && !this.gone?.[i]) {
        if (!this.slotAt) this.slotAt = Int32Array.from({ length: this.sorted.length }, (_, k) => k);
        this.slotAt[i] = slot;
        return;
      }
    }
    this.extra.set(id, slot);
  }

  /** Returns false when `id` had no slot. */
  delete(id: number): boolean {
    if (this.extra.delete(id)) return true;
    if (this.baseLive === 0) return false;
    const i = this.find(id);
    if (i < 0 || this.gone?.[i]) return false;
    (this.gone ??= new Uint8Array(this.sorted.length))[i] = 1;
    this.baseLive--;
    return true;
  }

  clear(): void {
    this.sorted = EMPTY;
    this.slotAt = null;
    this.gone = null;
    this.baseLive = 0;
    this.extra.clear();
  }

  /** Every [id, slot]: restored ids ascending, then the others in the order they were set. */
  *entries(): IterableIterator<[number, number]> {
    if (this.baseLive > 0) {
      for (let i = 0; i < this.sorted.length; i++) if (!this.gone?.[i]) yield [this.sorted[i]!, this.slotAt ? this.slotAt[i]! : i];
    }
    yield* this.extra;
  }

  /** Index of `id` in `sorted`, or -1. */
  private find(id: number): number {
    const a = this.sorted;
    let lo = 0;
    let hi = a.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = a[mid]!;
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return mid;
    }
    return -1;
  }
}
