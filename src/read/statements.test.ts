import { describe, expect, it } from 'vitest';
import { asksQuestion, PROFILE_CHARS, statementProfile } from './statements.js';

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

describe('asksQuestion', () => {
  it('is true for a sentence that ends in "?" and for a question written without one', () => {
    expect(asksQuestion('What did Caroline research?')).toBe(true);
    expect(asksQuestion('The deploy failed. Why?')).toBe(true);
    expect(asksQuestion('when did we last rotate the keys')).toBe(true);
    expect(asksQuestion('  How do I reset the cache')).toBe(true);
    expect(asksQuestion('did we ever roll back payments')).toBe(true);
    expect(asksQuestion('is the cache warm')).toBe(true);
  });

  it('is false for statements and keyword queries, even when they hold an interrogative word later on', () => {
    expect(asksQuestion('Caroline researched adoption agencies.')).toBe(false);
    expect(asksQuestion('deploy payments to prod')).toBe(false);
    expect(asksQuestion('notes on what went wrong')).toBe(false);
    expect(asksQuestion('whatever works')).toBe(false);
    // A modal or "do" that opens a request, not a question.
    expect(asksQuestion('do the deploy after lunch')).toBe(false);
    expect(asksQuestion('Can the old index.')).toBe(false);
    expect(asksQuestion('')).toBe(false);
  });
});
