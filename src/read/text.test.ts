import { describe, expect, it } from 'vitest';
import { exactShare, exactTokens, words } from './text.js';

describe('words', () => {
  it('lower-cases and splits like the FTS5 unicode61 tokenizer', () => {
    expect(words('ERR_PG_53300 in Café-Straße, 東京!')).toEqual(['err', 'pg', '53300', 'in', 'café', 'straße', '東京']);
  });
});

describe('exactTokens', () => {
  it('finds error codes, identifiers and versions', () => {
    expect(exactTokens('Seeing ERR_PG_53300 and E0425 after v1.2.3 (also 10.4.1) on max_tokens')).toEqual([
      'err_pg_53300',
      'e0425',
      'v1.2.3',
      '10.4.1',
      'max_tokens',
    ]);
  });

  it('leaves names, acronyms, ordinals and plain numbers to BM25', () => {
    expect(exactTokens('Did LGBTQ folks on YouTube meet LeBron on the 18th, at 5K, in 2022 or 2D?')).toEqual([]);
  });
});

describe('exactShare', () => {
  it('is the share of codes present as whole tokens, case-insensitively', () => {
    const codes = exactTokens('ERR_PG_53300 or E0425');
    expect(exactShare(codes, 'postgres said err_pg_53300 (too many clients)')).toBe(0.5);
    expect(exactShare(codes, 'ERR_PG_533001 is different')).toBe(0);
    expect(exactShare([], 'anything')).toBe(0);
  });
});
