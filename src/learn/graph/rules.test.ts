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

  it('reads a role at an organisation, passives, modals, pronoun objects and coordinated clauses', () => {
    expect(edges('Rita Gómez is the CTO at Globex; she signs off on budgets.')).toEqual(['Rita Gómez works_at Globex']);
    expect(edges("I'm the sous-chef at Le Petit Four.", 'Kai')).toEqual(['Kai works_at Le Petit Four']);
    // A role needs a person holding it and a verb: "the capital of" a place is not a job.
    expect(edges('Paris is the capital of France.')).toEqual([]);
    expect(edges('Felix will be supervised by Yuki until spring.')).toEqual(['Yuki manages Felix']);
    expect(edges('Bob reports to me as of today.', 'Carol')).toEqual(['Carol manages Bob']);
    expect(edges("I'll keep managing Dan.", 'Alice')).toEqual(['Alice manages Dan']);
    // "her team" is not a person: the pronoun object stands alone only before a pause or a preposition.
    expect(edges('Bob manages her team.', 'Carol', ['Ann'])).toEqual(['Bob manages team']);
    expect(edges('Sam Ortiz runs procurement at Globex and reports to Rita.')).toEqual(['Sam Ortiz works_at Globex', 'Rita manages Sam Ortiz']);
    expect(edges('Big change: Rita left Globex and joined Initech as their CTO.')).toEqual(['Rita works_at Initech']);
    expect(edges('I manage Bob and Dan on the platform team.', 'Alice')).toEqual(['Alice manages Bob', 'Alice manages Dan']);
    // Two clauses with their own subjects stay apart.
    expect(edges('Tariq coaches the Harbor Hawks and Bea coaches the Millfield Foxes.')).toEqual(['Tariq coaches Harbor Hawks', 'Bea coaches Millfield Foxes']);
    expect(edges('Salt & Ember is in Bordeaux and is managed by Claire Fontaine.')).toEqual(['Salt & Ember located_in Bordeaux', 'Claire Fontaine manages Salt & Ember']);
  });

  it('reads names with accents and "&", relative clauses, where a named thing is and what a system runs on', () => {
    expect(edges("I'm married to Élodie, who runs the wine program at Salt & Ember.", 'Antoine')).toEqual(['Élodie works_at Salt & Ember', 'Antoine married_to Élodie']);
    // A month opening a clause is not part of the name after it.
    expect(edges('From December Salt & Ember is managed by Hugo Marin.')).toEqual(['Hugo Marin manages Salt & Ember']);
    expect(edges('Salt & Ember is in Bordeaux.')).toEqual(['Salt & Ember located_in Bordeaux']);
    // A person "in" a city this week is not located there.
    expect(edges('Bob is in Paris this week.')).toEqual([]);
    expect(edges('Atlas uses JAX and runs on the Euler cluster.')).toEqual(['Atlas uses JAX', 'Atlas runs_on Euler']);
    expect(edges('I accepted a faculty position at MIT.', 'Amara')).toEqual(['Amara works_at MIT']);
    // A participle after a comma is not a coordinated verb of the sentence's subject.
    expect(edges("Umbrella Health's parent company is Umbrella Group, based in Austin.")).toEqual([]);
  });

  it('resolves "I" and "my" to the speaker and "my wife Maria" to Maria', () => {
    expect(edges('My wife Maria and I moved to Portland in May.', 'John').sort()).toEqual(['John lives_in Portland', 'John married_to Maria', 'Maria lives_in Portland']);
    expect(edges('I really like pottery.', 'Melanie')).toEqual(['Melanie likes pottery']);
    // Without a speaker, first person stays unresolved.
    expect(edges('I really like pottery.')).toEqual([]);
  });

  it('resolves a pronoun only when one other person is in view', () => {
    expect(edges('She loves hiking in the mountains.', 'Ann', ['Jane'])).toEqual(['Jane likes hiking']);
    expect(edges('She loves hiking in the mountains.', 'Ann', ['Jane', 'Kate'])).toEqual([]);
    expect(edges('She loves hiking in the mountains.', 'Ann', ['Ann'])).toEqual([]);
  });

  it('types what the tagger knows; the speaker is an entity only when a relation names them', () => {
    const x = extractFromTurn({ text: 'I met John Smith from Google in Boston.', speaker: 'Mel' });
    const types = Object.fromEntries(x.entities.map((e) => [e.name, e.entityType]));
    expect(types).toMatchObject({ 'John Smith': 'person', Boston: 'place' });
    expect(types.Mel).toBeUndefined();
    expect(extractFromTurn({ text: 'I live in Oslo.', speaker: 'Mel' }).entities.map((e) => e.name).sort()).toEqual(['Mel', 'Oslo']);
    expect(x.people).toContain('John Smith');
  });
});
