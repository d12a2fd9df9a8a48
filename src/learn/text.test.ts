import { describe, expect, it } from 'vitest';
import { articled, listPhrase, phraseFor, surfacesOf } from './phrase.js';
import { clip, contentTerms, isNumberLike, overlapCoefficient, stem, stemSet, stripLabel, tokens } from './text.js';

describe('stem', () => {
  it.each([
    [['exhaustion', 'exhausted', 'exhausting', 'exhausts'], 'exhaust'],
    [['deployment', 'deployed', 'deploys', 'deploying'], 'deploy'],
    [['connection', 'connections', 'connected'], 'connect'],
    [['queries', 'queried', 'query'], 'query'],
    [['spike', 'spikes', 'spiked'], 'spik'],
    [['stopped', 'stops', 'stop'], 'stop'],
  ])('%j → %s', (words, expected) => {
    expect(new Set(words.map(stem))).toEqual(new Set([expected]));
  });

  it('leaves short words, words ending in -us/-is/-ss, and words with digits alone', () => {
    expect(['bus', 'status', 'redis', 'process', '503s', 'v2'].map(stem)).toEqual(['bus', 'status', 'redis', 'process', '503s', 'v2']);
  });
});

describe('tokens and terms', () => {
  it('keeps versions and decimals whole and drops stopwords from content terms', () => {
    expect(tokens('Rolled back v2.14.3 at 4.2s, it’s fine.')).toEqual(['rolled', 'back', 'v2.14.3', 'at', '4.2s', "it's", 'fine']);
    expect(contentTerms('The pool of the service was exhausted').map((t) => [t.surface, t.stem, t.index])).toEqual([
      ['pool', 'pool', 1],
      ['service', 'servic', 4],
      ['exhausted', 'exhaust', 6],
    ]);
  });

  it('treats numbers, versions and measurements as number-like, words with digits otherwise not', () => {
    expect(['500', '4.2', 'v2.14.3', '200ms', '15x'].every(isNumberLike)).toBe(true);
    expect(['p95', 'ipv6', 'http2'].some(isNumberLike)).toBe(false);
  });

  it('overlap coefficient lets a short cause match a longer one', () => {
    expect(overlapCoefficient(stemSet('pool exhausted'), stemSet('the Redis connection pool was exhausted under load'))).toBe(1);
    expect(overlapCoefficient(new Set(), new Set(['a']))).toBe(0);
  });
});

describe('clip and labels', () => {
  it('cuts at a word boundary and marks the cut', () => {
    expect(clip('alpha beta gamma delta', 14)).toBe('alpha beta…');
    expect(clip('short', 14)).toBe('short');
    expect(clip('alpha beta gamma delta', 14).length).toBeLessThanOrEqual(14);
  });

  it('strips a leading label', () => {
    expect(stripLabel('Correction: it was DNS', ['correction'])).toBe('it was DNS');
    expect(stripLabel('Outcome — failed', ['outcome'])).toBe('failed');
    expect(stripLabel('No label here', ['outcome'])).toBe('No label here');
  });
});

describe('phrases', () => {
  it('takes the shortest span holding the terms, in the text’s own words', () => {
    expect(phraseFor('Redis connection pool exhaustion under high QPS', stemSet('pool exhausted connections'), 12)).toBe('connection pool exhaustion');
    // A long span falls back to the terms alone, in text order.
    expect(phraseFor('Disk on the west build agents that run nightly jobs for mobile was full', stemSet('disk full'), 12)).toBe('disk full');
  });

  it('keeps each term in the form the text first used, when a stem comes back later in another form', () => {
    const cause = "Receipts posted the vendor's shipping notice quantities without counting, and the delivery was short-shipped, leaving phantom stock.";
    const phrase = phraseFor(cause, stemSet('shipping notice counting short stock'), 12);
    expect(phrase.startsWith('shipping notice')).toBe(true);
    expect(phrase).not.toContain('shipped notice');
  });

  it('renders stems as written, lists and articles', () => {
    expect(surfacesOf(['deploy', 'traffic'], ['Errors right after Deploying; traffic flat'])).toEqual(['Deploying', 'traffic']);
    expect(listPhrase(['a', 'b', 'c'])).toBe('a, b and c');
    expect(articled('release')).toBe('the release');
    expect(articled('a schema change')).toBe('a schema change');
  });
});
