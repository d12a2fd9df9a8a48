import { describe, expect, it } from 'vitest';
import { PROFILE_CHARS, statementProfile } from './statements.js';

describe('statementProfile', () => {
  it('counts the words of sentences that do not ask, and the share of sentences that do', () => {
    expect(statementProfile('Caroline: What kind of art do you make?')).toEqual({ statedWords: 0, questionShare: 1 });
    expect(statementProfile('Melanie: Pottery, mostly. I took a class last month.')).toEqual({ statedWords: 9, questionShare: 0 });
    expect(statementProfile('Wow, nice! Where was that? We went there in May.')).toEqual({ statedWords: 7, questionShare: 1 / 3 });
  });

  it('gives an empty text nothing stated and no questions', () => {
    expect(statementProfile('')).toEqual({ statedWords: 0, questionShare: 0 });
    expect(statementProfile('   ')).toEqual({ statedWords: 0, questionShare: 0 });
  });

  it('reads only the head of a long text', () => {
    const sentence = 'The deploy failed on the staging cluster. ';
    const long = sentence.repeat(Math.ceil((3 * PROFILE_CHARS) / sentence.length));
    const head = statementProfile(long.slice(0, PROFILE_CHARS));
    expect(statementProfile(long)).toEqual(head);
    expect(head.statedWords).toBeLessThan(long.split(' ').length / 2);
  });
});
