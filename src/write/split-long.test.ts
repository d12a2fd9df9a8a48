import { describe, expect, it } from 'vitest';
import { splitLongText } from './split-long.js';

const squash = (s: string) => s.replace(/\s+/g, '');

describe('splitLongText', () => {
  it('returns a text that fits as it is', () => {
    expect(splitLongText('Short enough.', 100)).toEqual(['Short enough.']);
  });

  it('cuts at sentence ends, each part within the limit, nothing lost', () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says something about item ${i}.`).join(' ');
    const parts = splitLongText(text, 300);
    expect(parts.length).toBeGreaterThan(5);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(300);
      expect(p).toMatch(/\.$/);
    }
    expect(squash(parts.join(''))).toBe(squash(text));
  });

  it('prefers a paragraph break, and cuts a run without boundaries at the limit', () => {
    const para = `${'a '.repeat(60).trim()}\n\n${'b '.repeat(60).trim()}`;
    expect(splitLongText(para, 150)).toEqual(['a '.repeat(60).trim(), 'b '.repeat(60).trim()]);
    const blob = 'x'.repeat(250);
    expect(splitLongText(blob, 100).map((p) => p.length)).toEqual([100, 100, 50]);
  });
});
