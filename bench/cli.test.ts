import { describe, expect, it } from 'vitest';
import { parseList } from './cli.js';

describe('bench option lists', () => {
  it('reads positive whole numbers, comma-separated, spaces allowed', () => {
    expect(parseList('sizes', '10000, 100000')).toEqual([10000, 100000]);
    expect(parseList('model-size', '500')).toEqual([500]);
  });

  it('rejects anything else with a VALIDATION error naming the option', () => {
    for (const bad of ['0', '-3', '1.5', 'abc', '10,,20', '']) {
      expect(() => parseList('model-size', bad)).toThrow(expect.objectContaining({ code: 'VALIDATION', message: expect.stringContaining('--model-size') }));
    }
  });
});
