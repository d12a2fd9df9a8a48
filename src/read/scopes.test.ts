import { describe, expect, it } from 'vitest';
import { mergeScope } from './scopes.js';

describe('mergeScope', () => {
  it('narrows the request scope with the config scope and drops undefined fields', () => {
    expect(mergeScope({ userId: 'u1', agentId: undefined }, { session_id: 's1' })).toEqual({ userId: 'u1', sessionId: 's1' });
    expect(mergeScope(undefined, undefined)).toEqual({});
  });

  it('rejects a config scope that contradicts the request', () => {
    expect(() => mergeScope({ userId: 'u1' }, { user_id: 'u2' })).toThrow(/scope\.user_id/);
  });
});
