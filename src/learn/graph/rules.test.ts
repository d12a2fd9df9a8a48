import { describe, expect, it } from 'vitest';
import { extractFromTurn } from './rules.js';

const edges = (text: string, speaker?: string, previous: string[] = []) =>
  extractFromTurn({ text, speaker }, previous).relations.map((r) => `${r.source} ${r.type} ${r.target}`);

describe('rule extraction', () => {
  it('keeps direction: "reports to" and "X is Y\'s manager" are stored as manages from the manager', () => {
    expect(edges('Alice manages Bob.')).toEqual(['Alice manages Bob']);
    expect(edges('Bob reports to Carol.')).toEqual(['Carol manages Bob']);
    expect(edges("Carol is Alice's manager.")).toEqual(['Carol manages Alice']);
    expect(edges("Alice's boss is Dana.")).toEqual(['Dana manages Alice']);
  });

  it('reads the common phrasings', () => {
    expect(edges('Caroline works at Google as an engineer.')).toEqual(['Caroline works_at Google']);
    expect(edges('Then Alice moved to Berlin last year.')).toEqual(['Alice lives_in Berlin']);
    expect(edges('John married Sue in June.')).toEqual(['John married_to Sue']);
    expect(edges('Our API depends on Redis.')).toEqual(['API depends_on Redis']);
    expect(edges('The outage was caused by a bad config push.')).toEqual(['bad config push caused outage']);
    expect(edges('Dev prefers tabs over spaces.')).toEqual(['Dev prefers tabs']);
    expect(edges('Sam uses Python at work.')).toEqual(['Sam uses Python']);
  });

  it('resolves "I" and "my" to the speaker and "my wife Maria" to Maria', () => {
    expect(edges('My wife Maria and I moved to Portland in May.', 'John').sort()).toEqual(['John lives_in Portland', 'John married_to Maria']);
    expect(edges('I really like pottery.', 'Melanie')).toEqual(['Melanie likes pottery']);
    // Without a speaker, first person stays unresolved.
    expect(edges('I really like pottery.')).toEqual([]);
  });

  it('resolves a pronoun only when one other person is in view', () => {
    expect(edges('She loves hiking in the mountains.', 'Ann', ['Jane'])).toEqual(['Jane likes hiking']);
    expect(edges('She loves hiking in the mountains.', 'Ann', ['Jane', 'Kate'])).toEqual([]);
    expect(edges('She loves hiking in the mountains.', 'Ann', ['Ann'])).toEqual([]);
  });

  it('types what the tagger knows and the speaker', () => {
    const x = extractFromTurn({ text: 'I met John Smith from Google in Boston.', speaker: 'Mel' });
    const types = Object.fromEntries(x.entities.map((e) => [e.name, e.entityType]));
    expect(types).toMatchObject({ 'John Smith': 'person', Boston: 'place', Mel: 'person' });
    expect(x.people).toContain('John Smith');
  });
});
