/** The adapter's pure parts: tokenising, statement rendering, vector codecs, error mapping. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEngramError } from '../../../core/errors.js';
import { toEngramError, isRetryable } from './errors.js';
import { docSearchText, foldText, queryWords } from './fts.js';
import { advisoryKey } from './migrate.js';
import { qualify, render, sql } from './sql.js';
import { decodeVector, toVectorBytes, toVectorLiteral } from './vector-codec.js';

describe('tokenising', () => {
  it('splits on anything but letters, numbers and marks; folds diacritics and case', () => {
    expect(docSearchText('Deploying to the Café-server, NOW! (x1y)')).toEqual({ text: 'deploying to the cafe server now x1y', length: 7 });
    expect(foldText('Straße ÉLAN ﬁne')).toBe('straße elan fine');
    expect(docSearchText('東京 🙂 ok').text).toBe('東京 ok');
  });

  it('turns a query into distinct words only, capped, or nothing', () => {
    expect(queryWords('"near" AND ( drill')).toBe('near and drill');
    expect(queryWords('a a A b')).toBe('a b');
    expect(queryWords('  ?! ... ()"* ')).toBeUndefined();
    expect(queryWords(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '), 5)?.split(' ')).toHaveLength(5);
  });

  it('never lets tsquery syntax through, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const words = queryWords(text);
        if (words !== undefined) expect(words).toMatch(/^[\p{L}\p{N}\p{Co}]+( [\p{L}\p{N}\p{Co}]+)*$/u);
      }),
      { numRuns: 500, seed: 3 },
    );
  });
});

describe('statements', () => {
  it('numbers placeholders in order and qualifies the schemas', () => {
    const s = render(sql('SELECT ? FROM engram.docs d WHERE d.embedding OPERATOR(pgv.<=>) ?::pgv.vector < ?', 1, 'v', 2), { schema: 's1', vectorSchema: 'public' });
    expect(s.text).toBe('SELECT $1 FROM "s1".docs d WHERE d.embedding OPERATOR("public".<=>) $2::"public".vector < $3');
    expect(s.values).toEqual([1, 'v', 2]);
  });

  it('refuses a statement whose placeholders and parameters disagree', () => {
    expect(() => render(sql('SELECT ?, ?', 1), { schema: 's' })).toThrow(/2 placeholders but 1 parameters/);
  });

  it('leaves pgv. alone when there is no vector schema, and never touches other prefixes', () => {
    expect(qualify('engram.docs xengram.a pgv.vector', { schema: 'e' })).toBe('"e".docs xengram.a pgv.vector');
  });

  it('gives each schema its own stable advisory lock key', () => {
    expect(advisoryKey('engram:schema:a')).toBe(advisoryKey('engram:schema:a'));
    expect(advisoryKey('engram:schema:a')).not.toBe(advisoryKey('engram:schema:b'));
    expect(Number.isSafeInteger(advisoryKey('x'))).toBe(true);
  });
});

describe('vector codecs', () => {
  const v = Float32Array.from([0.1, -2.5e-8, 3.4028234663852886e38, 1 / 3, -1.5e-45]);

  it('round-trips float32 exactly through bytea bytes', () => {
    expect(Array.from(decodeVector('bytea', toVectorBytes(v)))).toEqual(Array.from(v));
    // From a view at an odd offset of a larger buffer (as a driver hands out bytea), and not sharing its memory.
    const padded = new Uint8Array(v.byteLength + 3);
    padded.set(toVectorBytes(v), 1);
    const view = padded.subarray(1, 1 + v.byteLength);
    const decoded = decodeVector('bytea', view);
    expect(Array.from(decoded)).toEqual(Array.from(v));
    padded.fill(0);
    expect(Array.from(decoded)).toEqual(Array.from(v));
  });

  it('writes literals that parse back to the same float32 and reads vector_send bytes', () => {
    const literal = toVectorLiteral(v);
    const parsed = Float32Array.from(literal.slice(1, -1).split(',').map(Number));
    expect(Array.from(parsed)).toEqual(Array.from(v));
    // vector_send: int16 dim, int16 unused, then big-endian float32s.
    const bytes = Buffer.alloc(4 + v.length * 4);
    bytes.writeUInt16BE(v.length, 0);
    v.forEach((x, i) => bytes.writeFloatBE(x, 4 + i * 4));
    expect(Array.from(decodeVector('pgvector', bytes))).toEqual(Array.from(v));
  });
});

describe('error mapping', () => {
  const pgError = (code: string) => Object.assign(new Error(`boom ${code}`), { code });

  it('maps SQLSTATEs to engine codes and keeps the cause', () => {
    const cases: [string, string][] = [
      ['23505', 'CONFLICT'],
      ['P0001', 'CONFLICT'],
      ['22P02', 'VALIDATION'],
      ['54000', 'LIMIT'],
      ['42501', 'FORBIDDEN'],
      ['57P01', 'UNAVAILABLE'],
      ['08006', 'UNAVAILABLE'],
      ['42P01', 'ADAPTER'],
    ];
    for (const [state, code] of cases) {
      const e = toEngramError('op', pgError(state));
      expect(isEngramError(e, code as never), state).toBe(true);
      expect(e.cause).toBeInstanceOf(Error);
    }
    expect(toEngramError('op', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).code).toBe('UNAVAILABLE');
  });

  it('retries only serialization failures and deadlocks', () => {
    expect(isRetryable(pgError('40001'))).toBe(true);
    expect(isRetryable(pgError('40P01'))).toBe(true);
    expect(isRetryable(pgError('23505'))).toBe(false);
  });
});
