import { describe, expect, it } from 'vitest';
import { readSentence, readStatements, SELF, statementText } from './fact-patterns.js';

const read = (s: string) => {
  const st = readSentence(s);
  return st ? [st.subject, st.predicate, st.value, st.kind] : undefined;
};

describe('readSentence', () => {
  it('reads common first-person statements', () => {
    expect(read('I prefer dark mode')).toEqual([SELF, 'prefers', 'dark mode', 'preference']);
    expect(read('I moved to Toronto')).toEqual([SELF, 'lives_in', 'Toronto', 'attribute']);
    expect(read('Actually, I just moved to Toronto last month.')).toEqual([SELF, 'lives_in', 'Toronto', 'attribute']);
    expect(read('I live in Montreal.')).toEqual([SELF, 'lives_in', 'Montreal', 'attribute']);
    expect(read('my manager is Sam')).toEqual([SELF, 'manager', 'Sam', 'relationship']);
    expect(read("My wife's name is Ana.")).toEqual([SELF, 'wife', 'Ana', 'relationship']);
    expect(read("I'm allergic to peanuts")).toEqual([SELF, 'allergic_to', 'peanuts', 'attribute']);
    expect(read('I work at Acme Corp, and I love it.')).toEqual([SELF, 'works_at', 'Acme Corp', 'attribute']);
    expect(read('I speak French.')).toEqual([SELF, 'speaks', 'French', 'attribute']);
    expect(read('My email is erin@example.com')).toEqual([SELF, 'email', 'erin@example.com', 'attribute']);
    expect(read("I'm vegetarian.")).toEqual([SELF, 'diet_or_trait', 'vegetarian', 'attribute']);
  });

  it('reads third-person statements about a named subject', () => {
    expect(read('Erin lives in Berlin.')).toEqual(['Erin', 'lives_in', 'Berlin', 'attribute']);
    expect(read('Erin moved to Munich.')).toEqual(['Erin', 'lives_in', 'Munich', 'attribute']);
    expect(read("Erin's manager is Sam Lee.")).toEqual(['Erin', 'manager', 'Sam Lee', 'relationship']);
    expect(read('Dave works for Globex.')).toEqual(['Dave', 'works_at', 'Globex', 'attribute']);
  });

  it('reads nothing from questions, negations, hedges, reported speech or pronoun values', () => {
    for (const s of [
      'Do I live in Toronto?',
      "I don't live in Toronto anymore.",
      'I might move to Toronto.',
      'If I lived in Toronto I would cycle.',
      'Sam said I prefer dark mode.',
      'I think I prefer dark mode.',
      'I like it.',
      'The house is on fire!',
      'He lives in Paris.',
      'I prefer to keep this between us and not share it with anyone at all please ok.',
    ]) expect(read(s), s).toBeUndefined();
  });

  it('reads one statement per sentence of a text and words it as a fact', () => {
    const st = readStatements('Hi! I moved to Toronto. My manager is Sam. Can you help me with taxes?');
    expect(st.map((s) => s.predicate)).toEqual(['lives_in', 'manager']);
    expect(statementText(st[0]!, 'The user')).toBe('The user lives in Toronto.');
    expect(statementText(st[1]!, 'The user')).toBe("The user's manager is Sam.");
  });
});
