import { describe, expect, it } from 'vitest';
import { Lru } from './lru.js';

describe('Lru', () => {
  it('computes a missing value once, keeps it, and evicts the least recently used past capacity', () => {
    const lru = new Lru<string, number>(2);
    let calls = 0;
    const len = (k: string) => (calls++, k.length);
    expect(lru.getOrSet('a', len)).toBe(1);
    expect(lru.getOrSet('a', len)).toBe(1);
    expect(calls).toBe(1);
    lru.getOrSet('bb', len);
    lru.get('a'); // 'a' is now the most recent
    lru.getOrSet('ccc', len); // evicts 'bb'
    expect(lru.get('bb')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.size).toBe(2);
    expect(calls).toBe(3);
  });
});
