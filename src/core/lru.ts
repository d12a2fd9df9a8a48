/** A small LRU map (Map keeps insertion order; a hit is re-inserted at the end). */
export class Lru<K, V> {
  private map = new Map<K, V>();
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** The value for `key`, computed (and kept) on a miss. */
  getOrSet(key: K, compute: (key: K) => V): V {
    let v = this.get(key);
    if (v === undefined) this.set(key, (v = compute(key)));
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}
