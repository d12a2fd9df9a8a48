// Its own file: vitest gives each file a fresh module graph, so WordNet starts unread here.
import { describe, expect, it } from 'vitest';
import type { Doc } from '../core/types.js';
import { conceptSignal } from './fusion-inputs.js';
import { ConceptMatcher, DEFAULT_CONCEPT_OPTIONS, conceptLoadMs, conceptMatcher, mayNameCategory } from './concepts.js';

const doc = (docId: number, text: string): Doc => ({
  docId, kind: 'event', refId: `e${docId}`, text, ts: 0, importance: 0, tags: [], pii: false, metadata: {},
  contentHash: `h${docId}`, confidence: 1, tenant: 't',
});

const docs = [doc(1, 'We adopted a beagle puppy last spring.'), doc(2, 'The quarterly report is due on Friday.')];

describe('the WordNet load gate', () => {
  it('leaves WordNet unread for queries that cannot name a category', () => {
    for (const q of ['Where did Melanie go camping?', 'When was the report due?', 'Tell me about the puppy', 'somewhat late shipments']) {
      expect(conceptSignal(q, docs)).toBeUndefined();
    }
    expect(conceptLoadMs()).toBe(0);
  });

  it('reads WordNet for a category question and finds the member', () => {
    const evidence = conceptSignal('Which two animals live with us?', docs);
    expect(conceptLoadMs()).toBeGreaterThan(0);
    expect(evidence?.get(1)).toBeGreaterThan(0);
    expect(evidence?.has(2)).toBe(false);
  });

  it('is a superset of what categories() finds', () => {
    const m = conceptMatcher();
    const queries = [
      'Which two animals live with us?', 'What instruments does Melanie play?', "What's the kind of instruments she plays?",
      'How many customers asked for refunds?', 'how   much money did we spend?', 'WHICH martial arts has John done?',
      'Where does she live?', 'Who adopted the beagle?', 'List the instruments she plays', 'Did the customers complain?',
      'When did the refund arrive and what caused the delay?', 'somewhat odd animals',
    ];
    for (const q of queries) {
      if (m.categories(q).length > 0) expect(mayNameCategory(q), q).toBe(true);
    }
    expect(mayNameCategory('Where does she live?')).toBe(false);
    expect(mayNameCategory('List the instruments she plays')).toBe(false);
    expect(mayNameCategory('How many customers asked?')).toBe(true);
    // Without `asked`, every noun is a category: the gate must let every query through.
    const every = { ...DEFAULT_CONCEPT_OPTIONS, asked: false };
    expect(mayNameCategory('List the instruments she plays', every)).toBe(true);
    expect(new ConceptMatcher(m.wn, every).categories('List the instruments she plays').length).toBeGreaterThan(0);
  });
});
