import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWith } from './validate.js';

const schema = z.object({ query: z.string(), k: z.number().optional(), scope: z.object({ user_id: z.string() }).optional() }).strict();

function issuesOf(input: unknown): { path: string; message: string }[] {
  try {
    parseWith(schema, input, { what: 'search', prefix: 'body' });
  } catch (e) {
    return (e as { issues: { path: string; message: string }[] }).issues;
  }
  return [];
}

describe('parseWith', () => {
  it('says "required" for a field left out, at any depth, and keeps zod\'s message for a value of the wrong type', () => {
    expect(issuesOf({ scope: {} })).toEqual([
      { path: 'body.query', message: 'required' },
      { path: 'body.scope.user_id', message: 'required' },
    ]);
    expect(issuesOf({ query: null, k: 'three' }).map((i) => i.message)).toEqual(['Invalid input: expected string, received null', 'Invalid input: expected number, received string']);
    expect(issuesOf({ query: 'q', kk: 1 })).toEqual([{ path: 'body', message: 'unknown field(s): kk' }]);
  });

  it('names the first failing path in the message', () => {
    expect(() => parseWith(schema, {}, { what: 'search' })).toThrow('invalid search: query: required');
  });
});
