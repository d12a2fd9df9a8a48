import { describe, expect, it } from 'vitest';
import { analyze, containsToken, stem } from './analyze.js';

describe('stem', () => {
  it('brings inflections of a word together', () => {
    for (const group of [
      ['configure', 'configured', 'configures', 'configuring'],
      ['run', 'runs', 'running'],
      ['stop', 'stops', 'stopped'],
      ['query', 'queries'],
      ['match', 'matches'],
      ['fail', 'fails', 'failed', 'failing'],
      ['need', 'needs', 'needed'],
    ]) {
      expect(new Set(group.map(stem)), group.join('/')).toHaveProperty('size', 1);
    }
  });

  it('leaves short words, words without a vowel in the stem, and words with digits alone', () => {
    for (const w of ['thing', 'bring', 'string', 'class', 'bus', 'speed', 'e0425', 'ipv6s']) expect(stem(w)).toBe(w);
    expect(stem('deployment')).not.toBe(stem('deploy'));
  });
});

describe('analyze', () => {
  it('case-folds, marks stopwords and keeps term order', () => {
    const a = analyze('The Deploys FAILED at Night');
    expect(a.terms).toEqual(['the', 'deploy', 'fail', 'at', 'night']);
    expect(a.content).toEqual([false, true, true, false, true]);
  });

  it('collects numbers, identifiers and codes verbatim (case-folded), not ordinary words', () => {
    const a = analyze('Error E0425: cannot find `getUserById` in src/db.rs (ENOENT, max_tokens=4096, v1.2.3).');
    expect([...a.exact].sort()).toEqual(['4096', 'e0425', 'enoent', 'getuserbyid', 'max_tokens', 'src/db.rs', 'v1.2.3']);
  });

  it('splits Han and kana into single-character terms, since they are written without spaces', () => {
    expect(analyze('東京の天気').terms).toEqual(['東', '京', 'の', '天', '気']);
    expect(analyze('café naïve').terms).toEqual(['café', 'naïve']);
    expect(analyze('iPhone15の価格').terms).toEqual(['iphone15', 'の', '価', '格']);
  });
});

describe('containsToken', () => {
  it('matches whole tokens only', () => {
    expect(containsToken('http 404.', '404')).toBe(true);
    expect(containsToken('error[e0425]', 'e0425')).toBe(true);
    expect(containsToken('code 14040', '404')).toBe(false);
    expect(containsToken('version 1.2.3', '1.2')).toBe(false);
    expect(containsToken('1.2.3', '2.3')).toBe(false);
    expect(containsToken('use max_tokens_total', 'max_tokens')).toBe(false);
  });
});
