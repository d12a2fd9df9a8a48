import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from './backoff.js';

describe('backoffDelay', () => {
  it('stays within the upper half of the capped exponential step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, base, max, r) => {
          const step = Math.min(max, base * 2 ** retry);
          const d = backoffDelay(retry, { baseDelayMs: base, maxDelayMs: max }, () => r);
          expect(d).toBeGreaterThanOrEqual(step / 2);
          expect(d).toBeLessThanOrEqual(step);
        },
      ),
    );
  });

  it('grows exponentially until the cap', () => {
    const at = (retry: number) => backoffDelay(retry, { baseDelayMs: 100, maxDelayMs: 1000 }, () => 0);
    expect([0, 1, 2, 3, 4, 5].map(at)).toEqual([50, 100, 200, 400, 500, 500]);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  const h = (init: Record<string, string>) => new Headers(init);

  it('reads seconds, HTTP dates and retry-after-ms', () => {
    expect(parseRetryAfter(h({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(h({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfter(h({ 'retry-after': 'Sun, 01 Jun 2025 12:00:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfter(h({ 'retry-after': 'Sun, 01 Jun 2025 11:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(h({ 'retry-after-ms': '120', 'retry-after': '9' }), now)).toBe(120);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(h({}), now)).toBeUndefined();
    expect(parseRetryAfter(h({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(h({ 'retry-after': '-4' }), now)).toBeUndefined();
    expect(parseRetryAfter(h({ 'retry-after-ms': 'x', 'retry-after': '2' }), now)).toBe(2000);
  });
});
