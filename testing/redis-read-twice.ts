/**
 * For running the storage conformance suite through the hot tier's *hit* path: every read the tier caches is
 * made twice, the second answer (from Redis, once the first filled it) must equal the first (from the
 * primary), and the second is what the suite sees.
 */
import { expect } from 'vitest';
import type { Storage } from '../src/ports/storage.js';

const CACHED_READS = new Set<PropertyKey>(['queryEvents', 'getFact', 'getLiveFact', 'getFactVersions', 'getWorkingMemory']);

export function readTwice<S extends Storage>(storage: S): S {
  return new Proxy(storage, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => Promise<unknown>;
      if (!CACHED_READS.has(prop)) return fn.bind(target);
      return async (...args: unknown[]) => {
        const first = await fn.apply(target, args);
        const second = await fn.apply(target, args);
        expect(second, `${String(prop)} answered from the cache`).toEqual(first);
        return second;
      };
    },
  });
}
