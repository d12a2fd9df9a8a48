/**
 * An in-memory inverted index scored with Okapi BM25 exactly as SQLite FTS5's `bm25()` scores a query of
 * OR'ed terms (k1 = 1.2, b = 0.75):
 *
 *   score(d) = Σ_t idf(t) · tf(t,d)·(k1 + 1) / (tf(t,d) + k1·(1 − b + b·|d| / avgdl))
 *   idf(t)   = ln((N − n(t) + 0.5) / (n(t) + 0.5)), or 1e-6 when that is ≤ 0
 *
 * with N, n(t) and avgdl over the docs of this index (one tenant). Why not FTS5 itself: FTS5 scores every
 * row that matches any query term, then sorts; a question's common words ("what", "the", "service") match
 * half of a 100k-doc tenant and one query took ~280 ms. Here one query costs one pass over its terms'
 * postings in typed arrays (tens of nanoseconds a posting) and a k-sized heap.
 *
 * One deliberate difference, from SKIP_COMMON_FROM docs on: a term in at least half of the docs has FTS5's
 * floor idf (1e-6), so it moves no score by more than ~2e-6, yet its postings are the longest ("the",
 * "what"). Its postings are skipped: such a term alone no longer makes a doc a hit, and its best score is
 * reported as that floor (it matched, but is worth nothing), which keeps the read path's lexical ceiling as it
 * was. Small indexes score every term, so a young memory still finds its few docs by any shared word.
 *
 * Docs live in slots. A removed doc's slot is marked dead and skipped; its postings stay until enough
 * slots are dead, then everything is rebuilt compactly from each live doc's term list.
 */
import { EngramError } from '../../core/errors.js';
import { IdSlots } from '../../core/id-slots.js';
import { TopK } from '../vector/top-k.js';
import { analyze } from './analyzer.js';

const K1 = 1.2;
const B = 0.75;
const MIN_IDF = 1e-6;
/** Index size from which floor-idf terms are skipped (see above). */
export const SKIP_COMMON_FROM = 1000;
/** Rebuild when this share of slots is dead (and at least MIN_DEAD_TO_COMPACT are). */
const COMPACT_DEAD_SHARE = 0.25;
const MIN_DEAD_TO_COMPACT = 1024;

export interface LexicalHit {
  id: number;
  score: number;
}

class Postings {
  slots: Int32Array<ArrayBufferLike> = new Int32Array(4);
  tfs: Uint16Array<ArrayBufferLike> = new Uint16Array(4);
  length = 0;
  /** Live docs containing the term. */
  df = 0;

  push(slot: number, tf: number): void {
    if (this.length === this.slots.length) {
      const slots = new Int32Array(this.length * 2);
      slots.set(this.slots);
      const tfs = new Uint16Array(this.length * 2);
      tfs.set(this.tfs);
      this.slots = slots;
      this.tfs = tfs;
    }
    this.slots[this.length] = slot;
    this.tfs[this.length] = Math.min(tf, 0xffff);
    this.length++;
  }
}

/** Distinct term ids of one doc with their frequencies: [term, tf, term, tf, …]. */
type TermCounts = Int32Array;

/**
 * An index's docs and postings as flat arrays (persisted by the storage adapters; see `Bm25Index.fromState`):
 * what a search reads, so a restore builds nothing per posting.
 */
export interface Bm25State {
  /** Term strings by term id. */
  terms: string[];
  /** Per slot (live docs, 0..n): the doc id and its analyzed length. */
  ids: Float64Array;
  lengths: Float64Array;
  /** Term t's postings are [start[t], start[t+1]) of `slots` and `tfs`, slots ascending. */
  start: Int32Array;
  slots: Int32Array;
  tfs: Uint16Array;
}

export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private postings: Postings[] = [];
  private slotOf = new IdSlots();
  private docIds = new Float64Array(64);
  private lengths = new Float64Array(64);
  /** Term counts of slots from `baseSlots` on (undefined once removed); see `countsOf`. */
  private counts: (TermCounts | undefined)[] = [];
  /**
   * Slots [0, baseSlots) came from a saved state: their counts are ranges of `baseCounts` (no object per doc),
   * transposed from the postings when first needed (a restored doc removed or changed, a compaction).
   */
  private baseSlots = 0;
  private baseCounts: Int32Array | null = new Int32Array(0);
  private baseOffsets: Int32Array = new Int32Array(1);
  private slots = 0;
  private live = 0;
  private totalLength = 0;
  /** Scratch per slot, reused by every search (searches are synchronous): scores and accept verdicts. */
  private acc = new Float64Array(64);
  private verdicts = new Uint8Array(64);
  /** The slots a search has scored, in the order it first scored them (grown to the scratch arrays' size). */
  private touched = new Int32Array(0);

  get size(): number {
    return this.live;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Indexes `text` as doc `id` (replacing what `id` had). */
  add(id: number, text: string): void {
    this.remove(id);
    const perTerm = new Map<number, number>();
    const terms = analyze(text);
    for (const t of terms) {
      const tid = this.termId(t);
      perTerm.set(tid, (perTerm.get(tid) ?? 0) + 1);
    }
    const counts = new Int32Array(perTerm.size * 2);
    let i = 0;
    for (const [tid, tf] of perTerm) {
      counts[i++] = tid;
      counts[i++] = tf;
    }
    this.place(id, terms.length, counts);
  }

  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const counts = this.countsOf(slot)!;
    this.slotOf.delete(id);
    for (let i = 0; i < counts.length; i += 2) this.postings[counts[i]!]!.df--;
    if (slot >= this.baseSlots) this.counts[slot - this.baseSlots] = undefined;
    this.docIds[slot] = -1;
    this.totalLength -= this.lengths[slot]!;
    this.live--;
    const dead = this.slots - this.live;
    if (dead >= MIN_DEAD_TO_COMPACT && dead >= COMPACT_DEAD_SHARE * this.slots) this.compact();
  }

  /**
   * The k best docs for OR'ed `terms` (already analyzed, e.g. by `queryTerms`), best first, ties by lower
   * id. `accept` filters docs (scope, kind, metadata); it is asked only about docs good enough to enter the
   * top k.
   */
  search(terms: readonly string[], k: number, accept?: (id: number) => boolean): LexicalHit[] {
    return this.searchWithTermBest(terms, k, accept).hits;
  }

  /**
   * `search`, plus each distinct term's best single-term score among accepted docs (0 when none), in the
   * same pass: a posting asks `accept` (once per doc, remembered) only when it beats its term's best so far.
   */
  searchWithTermBest(terms: readonly string[], k: number, accept?: (id: number) => boolean): { hits: LexicalHit[]; termBest: number[] } {
    const distinct = [...new Set(terms)];
    const termBest = distinct.map(() => 0);
    if (k <= 0 || this.live === 0) return { hits: [], termBest };
    const avgdl = this.totalLength / this.live || 1;
    const base = K1 * (1 - B);
    const perLength = (K1 * B) / avgdl;
    // Fields read per posting are held in locals: the loop below runs over every posting of the query's terms.
    const { acc, docIds, lengths, postings, termIds } = this;
    const verdict = this.verdicts; // 0: not asked, 1: accepted, 2: rejected
    const accepted = (slot: number): boolean => {
      if (!accept) return true;
      if (verdict[slot] === 0) verdict[slot] = accept(docIds[slot]!) ? 1 : 2;
      return verdict[slot] === 1;
    };
    if (this.touched.length < acc.length) this.touched = new Int32Array(acc.length);
    const touched = this.touched;
    let nTouched = 0;
    for (let t = 0; t < distinct.length; t++) {
      const p = postings[termIds.get(distinct[t]!) ?? -1];
      if (!p || p.df === 0) continue;
      const idf = Math.log((this.live - p.df + 0.5) / (p.df + 0.5));
      if (idf <= MIN_IDF && this.live >= SKIP_COMMON_FROM) {
        termBest[t] = MIN_IDF;
        continue;
      }
      const c = Math.max(MIN_IDF, idf) * (K1 + 1);
      const { slots, tfs, length } = p;
      let best = 0;
      for (let i = 0; i < length; i++) {
        const slot = slots[i]!;
        if (docIds[slot]! < 0) continue;
        const tf = tfs[i]!;
        const w = (c * tf) / (tf + base + perLength * lengths[slot]!);
        if (acc[slot] === 0) touched[nTouched++] = slot;
        acc[slot]! += w;
        if (w > best && accepted(slot)) best = w;
      }
      termBest[t] = best;
    }
    const hits = topK(touched, nTouched, acc, docIds, k, accepted);
    for (let i = 0; i < nTouched; i++) {
      const slot = touched[i]!;
      acc[slot] = 0;
      verdict[slot] = 0;
    }
    return { hits, termBest };
  }

  /** The live docs and their postings (no text is kept, so this is what a saved index holds). */
  exportState(): Bm25State {
    // Only terms some live doc holds: a removed doc's words (forget, redaction) must not reach the saved file.
    const byId: string[] = new Array<string>(this.postings.length);
    for (const [term, id] of this.termIds) byId[id] = term;
    // Live slots renumbered densely, in slot order (so each term's postings stay ascending).
    const newSlot = new Int32Array(this.slots).fill(-1);
    const ids = new Float64Array(this.live);
    const lengths = new Float64Array(this.live);
    let n = 0;
    for (let s = 0; s < this.slots; s++) {
      if (this.docIds[s]! < 0) continue;
      newSlot[s] = n;
      ids[n] = this.docIds[s]!;
      lengths[n++] = this.lengths[s]!;
    }
    const terms: string[] = [];
    const kept: Postings[] = [];
    for (let id = 0; id < byId.length; id++) {
      const p = this.postings[id]!;
      if (p.df > 0) {
        terms.push(byId[id]!);
        kept.push(p);
      }
    }
    const start = new Int32Array(kept.length + 1);
    kept.forEach((p, t) => (start[t + 1] = start[t]! + p.df));
    const slots = new Int32Array(start[kept.length]!);
    const tfs = new Uint16Array(slots.length);
    kept.forEach((p, t) => {
      let at = start[t]!;
      for (let i = 0; i < p.length; i++) {
        const to = newSlot[p.slots[i]!]!;
        if (to < 0) continue;
        slots[at] = to;
        tfs[at++] = p.tfs[i]!;
      }
    });
    return { terms, ids, lengths, start, slots, tfs };
  }

  /**
   * An index with exactly the docs of `state`. Nothing is re-analyzed and nothing is built per posting: each
   * term's postings are views into `state.slots` and `state.tfs` (a term that grows later moves to its own), and
   * ids are found by binary search (IdSlots). Per-doc term counts are derived from the postings only if a
   * restored doc is later removed or changed.
   */
  static fromState(state: Bm25State): Bm25Index {
    const { terms, ids, lengths, start, slots, tfs } = state;
    const n = ids.length;
    const nTerms = terms.length;
    if (lengths.length !== n || start.length !== nTerms + 1 || start[0] !== 0 || start[nTerms] !== slots.length || tfs.length !== slots.length) {
      throw new EngramError('ADAPTER', 'bm25 state: array lengths disagree');
    }
    for (let t = 0; t < nTerms; t++) if (start[t + 1]! < start[t]!) throw new EngramError('ADAPTER', 'bm25 state: postings out of order');
    // Every slot in [0, n): branch-free, the sign bit collects any slot below 0 or above n - 1.
    let outside = 0;
    for (let i = 0; i < slots.length; i++) outside |= slots[i]! | (n - 1 - slots[i]!);
    if (outside < 0) throw new EngramError('ADAPTER', 'bm25 state: a posting names no doc');
    const index = new Bm25Index();
    terms.forEach((t) => index.termId(t));
    if (index.postings.length !== nTerms) throw new EngramError('ADAPTER', 'bm25 state: a term appears twice');
    for (let t = 0; t < nTerms; t++) {
      const p = index.postings[t]!;
      p.slots = slots.subarray(start[t]!, start[t + 1]!);
      p.tfs = tfs.subarray(start[t]!, start[t + 1]!);
      p.length = p.df = start[t + 1]! - start[t]!;
    }
    index.slotOf = IdSlots.fromSlots(ids, 'bm25 state');
    index.grow(Math.max(64, n));
    index.docIds.set(ids);
    index.lengths.set(lengths);
    let total = 0;
    for (let i = 0; i < n; i++) total += lengths[i]!;
    index.baseSlots = index.slots = index.live = n;
    index.baseCounts = null;
    index.totalLength = total;
    return index;
  }

  /**
   * The restored slots' term counts, [term, tf, …] per slot in `baseCounts` over `baseOffsets`: two passes over
   * the postings' restored entries (slots below `baseSlots`; later ones were added since), removed docs included.
   */
  private restoredCounts(): Int32Array {
    if (this.baseCounts) return this.baseCounts;
    const n = this.baseSlots;
    const offsets = new Int32Array(n + 1);
    for (const p of this.postings) {
      for (let i = 0; i < p.length; i++) {
        const slot = p.slots[i]!;
        if (slot < n) offsets[slot + 1]! += 2;
      }
    }
    for (let s = 0; s < n; s++) offsets[s + 1]! += offsets[s]!;
    const cursor = offsets.slice(0, n);
    const counts = new Int32Array(offsets[n]!);
    this.postings.forEach((p, t) => {
      for (let i = 0; i < p.length; i++) {
        const slot = p.slots[i]!;
        if (slot >= n) continue;
        const at = cursor[slot]!;
        counts[at] = t;
        counts[at + 1] = p.tfs[i]!;
        cursor[slot] = at + 2;
      }
    });
    this.baseOffsets = offsets;
    this.baseCounts = counts;
    return counts;
  }

  /** A live slot's term counts (undefined for a removed one). */
  private countsOf(slot: number): TermCounts | undefined {
    if (slot >= this.baseSlots) return this.counts[slot - this.baseSlots];
    if (this.docIds[slot]! < 0) return undefined;
    return this.restoredCounts().subarray(this.baseOffsets[slot]!, this.baseOffsets[slot + 1]!);
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.postings.length;
      this.termIds.set(term, id);
      this.postings.push(new Postings());
    }
    return id;
  }

  private place(id: number, length: number, counts: TermCounts): void {
    const slot = this.slots++;
    if (slot >= this.docIds.length) this.grow(Math.max(64, slot * 2));
    this.slotOf.set(id, slot);
    this.docIds[slot] = id;
    this.lengths[slot] = length;
    this.counts[slot - this.baseSlots] = counts;
    this.totalLength += length;
    this.live++;
    for (let i = 0; i < counts.length; i += 2) {
      const p = this.postings[counts[i]!]!;
      p.push(slot, counts[i + 1]!);
      p.df++;
    }
  }

  private grow(capacity: number): void {
    const grown = (a: Float64Array) => {
      const b = new Float64Array(capacity);
      b.set(a.subarray(0, Math.min(a.length, capacity)));
      return b;
    };
    this.docIds = grown(this.docIds);
    this.lengths = grown(this.lengths);
    this.acc = new Float64Array(capacity);
    this.verdicts = new Uint8Array(capacity);
  }

  /** Rebuilds postings and slots from the live docs' term lists (term ids are kept). */
  private compact(): void {
    const live: [id: number, length: number, counts: TermCounts][] = [];
    for (let s = 0; s < this.slots; s++) {
      const counts = this.countsOf(s);
      if (counts) live.push([this.docIds[s]!, this.lengths[s]!, counts]);
    }
    this.postings = this.postings.map(() => new Postings());
    this.slotOf.clear();
    this.counts = [];
    this.baseSlots = 0;
    this.baseCounts = new Int32Array(0);
    this.baseOffsets = new Int32Array(1);
    this.slots = 0;
    this.live = 0;
    this.totalLength = 0;
    this.docIds = new Float64Array(Math.max(64, live.length));
    this.lengths = new Float64Array(this.docIds.length);
    this.acc = new Float64Array(this.docIds.length);
    this.verdicts = new Uint8Array(this.docIds.length);
    for (const [id, length, counts] of live) this.place(id, length, counts);
  }
}

/** The k best touched slots by accumulated score, asking `accepted` only of those that would enter the top k. */
function topK(touched: Int32Array, n: number, acc: Float64Array, docIds: Float64Array, k: number, accepted: (slot: number) => boolean): LexicalHit[] {
  const top = new TopK(k);
  for (let i = 0; i < n; i++) {
    const slot = touched[i]!;
    const score = acc[slot]!;
    if (top.admits(docIds[slot]!, score) && accepted(slot)) top.push(docIds[slot]!, score);
  }
  return top.sorted();
}
