import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTokenCounter } from './tokens.js';

describe('token counter', () => {
  const tc = createTokenCounter();

  it('counts BPE tokens, not words or characters', () => {
    expect(tc.count('')).toBe(0);
    expect(tc.count('hello world')).toBe(2);
    // A long rare identifier splits into several tokens.
    expect(tc.count('ERR_CONNECTION_POOL_EXHAUSTED_0x7f3a')).toBeGreaterThan(5);
  });

  it('truncates to at most the requested tokens, keeping a prefix', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 0, max: 40 }), (s, n) => {
        const cut = tc.truncate(s, n);
        expect(tc.count(cut)).toBeLessThanOrEqual(n);
        expect(s.startsWith(cut)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
