import { describe, expect, it } from 'vitest';
import { decodeUtf8, jsonDepthExceeds } from './json-guard.js';

describe('JSON guard', () => {
  it('measures nesting outside strings only', () => {
    expect(jsonDepthExceeds('{"a":[[1]]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[[[1]]]}', 3)).toBe(true);
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(100)}"}`, 3)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\"${'{'.repeat(100)}"}`, 3)).toBe(false);
    expect(jsonDepthExceeds('['.repeat(10_000), 64)).toBe(true);
  });

  it('refuses invalid UTF-8 instead of replacing it', () => {
    expect(decodeUtf8(new TextEncoder().encode('héllo').buffer as ArrayBuffer)).toBe('héllo');
    expect(() => decodeUtf8(new Uint8Array([0x7b, 0xff, 0x7d]).buffer)).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
  });
});
