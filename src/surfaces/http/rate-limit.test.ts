import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './rate-limit.js';

describe('TokenBuckets', () => {
  it('grants the burst, then refuses with the wait until the next token, and refills over time', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 2, perSecond: 4 }, () => now);
    expect(buckets.take('k')).toBe(0);
    expect(buckets.take('k')).toBe(0);
    expect(buckets.take('k')).toBeCloseTo(250);
    now = 100;
    expect(buckets.take('k')).toBeCloseTo(150);
    now = 250;
    expect(buckets.take('k')).toBe(0);
    expect(buckets.take('other')).toBe(0);
  });

  it('never holds more than the burst however long a key was idle', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 3, perSecond: 10 }, () => now);
    buckets.take('k');
    now = 3_600_000;
    const granted = Array.from({ length: 5 }, () => buckets.take('k')).filter((w) => w === 0).length;
    expect(granted).toBe(3);
  });
});
