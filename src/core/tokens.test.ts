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

  it('counts through its memo exactly as the tokenizer does, also for texts beyond the memo limit', () => {
    const fresh = () => createTokenCounter();
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 80 }), { minLength: 1, maxLength: 20 }), (texts) => {
        const counter = fresh();
        const expected = texts.map((t) => fresh().count(t));
        expect(texts.map((t) => counter.count(t))).toEqual(expected);
        // Asked again (now from the memo), in another order, and next to a text too long to be memoised.
        const long = texts.join(' ').repeat(40).slice(0, 2_500);
        expect([...texts].reverse().map((t) => counter.count(t))).toEqual([...expected].reverse());
        expect(counter.count(long)).toBe(fresh().count(long));
      }),
      { numRuns: 100 },
    );
  });

  it('counts stored special-token text as plain characters instead of throwing', () => {
    const counter = createTokenCounter();
    expect(counter.count('a <|endoftext|> b <|im_start|>')).toBeGreaterThan(5);
    expect(counter.truncate('<|endoftext|> '.repeat(20), 4).length).toBeGreaterThan(0);
  });
});
