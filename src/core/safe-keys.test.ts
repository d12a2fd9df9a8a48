import { describe, expect, it } from 'vitest';
import { EngramError } from './errors.js';
import { matchesFilter, parseFilter } from './filter.js';
import { assertNoForbiddenKeys, forbiddenKeyPath } from './safe-keys.js';

describe('forbiddenKeyPath', () => {
  it('finds a parsed __proto__ key at any depth and names its path', () => {
    expect(forbiddenKeyPath(JSON.parse('{"a":[{"b":{"__proto__":{"x":1}}}]}'), 'metadata')).toBe('metadata.a.0.b.__proto__');
    expect(forbiddenKeyPath({ constructor: 1, toString: { valueOf: 2 } })).toBeUndefined();
    let deep: unknown = JSON.parse('{"__proto__":1}');
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(forbiddenKeyPath(deep)?.endsWith('.0.__proto__')).toBe(true);
    expect(() => assertNoForbiddenKeys(JSON.parse('{"__proto__":1}'), 'args')).toThrow(EngramError);
  });
});

describe('filters over prototype-named keys', () => {
  it('treats constructor, toString and valueOf as metadata keys, and rejects __proto__ with its path', () => {
    const node = parseFilter({ constructor: 'c', toString: { eq: 't' }, 'metadata.valueOf': { exists: true } });
    const doc = { metadata: { constructor: 'c', toString: 't', valueOf: 1 } } as unknown as Parameters<typeof matchesFilter>[0];
    expect(matchesFilter(doc, node)).toBe(true);
    expect(matchesFilter({ metadata: {} } as unknown as Parameters<typeof matchesFilter>[0], node)).toBe(false);
    expect(() => parseFilter(JSON.parse('{"or":[{"metadata.__proto__":1}]}'))).toThrow(/filters\.or\.0\.metadata\.__proto__/);
  });
});
