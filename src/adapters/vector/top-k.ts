import type { VectorHit } from '../../ports/vector-index.js';

/** Orders hits best first; equal scores by ascending id so every index breaks ties the same way. */
export function byScoreThenId(a: VectorHit, b: VectorHit): number {
  return b.score - a.score || a.id - b.id;
}

/**
 * A bounded min-heap keeping the k best hits in `byScoreThenId` order: among equal scores at the boundary the lower
 * ids stay, so the k best are the first k of any larger k's (a pool asked for 80 holds the same hits as the first 80
 * of one asked for 120, however the tied hits arrived).
 */
export class TopK {
  private readonly ids: Float64Array;
  private readonly scores: Float64Array;
  private n = 0;
  private readonly k: number;

  constructor(k: number) {
    this.k = Math.max(0, Math.floor(k));
    this.ids = new Float64Array(this.k);
    this.scores = new Float64Array(this.k);
  }

  get length(): number {
    return this.n;
  }

  /** The score an item must beat to enter (−∞ until full; +∞ when k is 0, so nothing enters). */
  floor(): number {
    if (this.k === 0) return Infinity;
    return this.n < this.k ? -Infinity : this.scores[0]!;
  }

  /** Whether a hit would enter: it beats the worst kept, or ties it with a lower id. */
  admits(id: number, score: number): boolean {
    if (this.k === 0) return false;
    return this.n < this.k || score > this.scores[0]! || (score === this.scores[0]! && id < this.ids[0]!);
  }

  push(id: number, score: number): void {
    if (this.n < this.k) {
      this.ids[this.n] = id;
      this.scores[this.n] = score;
      this.up(this.n++);
    } else if (this.admits(id, score)) {
      this.ids[0] = id;
      this.scores[0] = score;
      this.down(0);
    }
  }

  sorted(): VectorHit[] {
    const out: VectorHit[] = [];
    for (let i = 0; i < this.n; i++) out.push({ id: this.ids[i]!, score: this.scores[i]! });
    return out.sort(byScoreThenId);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.n;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.worse(l, m)) m = l;
      if (r < n && this.worse(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  /** Slot a ranks after slot b (lower score, or the same score and a higher id). */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a]!;
    const sb = this.scores[b]!;
    return sa < sb || (sa === sb && this.ids[a]! > this.ids[b]!);
  }

  private swap(a: number, b: number): void {
    const id = this.ids[a]!;
    this.ids[a] = this.ids[b]!;
    this.ids[b] = id;
    const s = this.scores[a]!;
    this.scores[a] = this.scores[b]!;
    this.scores[b] = s;
  }
}
