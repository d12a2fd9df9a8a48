import type { VectorHit } from '../../ports/vector-index.js';

/** Orders hits best first; equal scores by ascending id so every index breaks ties the same way. */
export function byScoreThenId(a: VectorHit, b: VectorHit): number {
  return b.score - a.score || a.id - b.id;
}

/** A bounded min-heap keeping the k highest scores. */
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

  push(id: number, score: number): void {
    if (this.n < this.k) {
      this.ids[this.n] = id;
      this.scores[this.n] = score;
      this.up(this.n++);
    } else if (this.k > 0 && score > this.scores[0]!) {
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
      if (this.scores[p]! <= this.scores[i]!) break;
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
      if (l < n && this.scores[l]! < this.scores[m]!) m = l;
      if (r < n && this.scores[r]! < this.scores[m]!) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
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
