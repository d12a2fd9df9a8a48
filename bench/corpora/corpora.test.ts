/**
 * The committed corpora are what generate.ts writes (so their questions, evidence and splits cannot drift
 * silently), every question's evidence names a memory of its corpus, questions added after a split was frozen are
 * tuning questions only (`tq…`), and an evaluation half written later as a block (`eq…`) is evaluation only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recallAt } from './run.js';
import { chatsCorpus } from './src/chats.js';
import { faqCorpus } from './src/faq.js';
import type { Corpus } from './src/format.js';
import { longChatKinds, longChatsCorpus } from './src/long-chats.js';
import { longTurnsCorpus, longTurnsKinds } from './src/long-turns.js';
import { chatsRewordedCorpus, chatsRewordedKinds, longLexicalCorpus, longLexicalKinds } from './src/margins.js';
import { sharedWordCorpus, sharedWordKinds } from './src/shared-word.js';
import { tracesCorpus } from './src/traces.js';
import { whoSaidCorpus, whoSaidKinds } from './src/who-said.js';

describe('bench corpora', () => {
  for (const make of [chatsCorpus, tracesCorpus, faqCorpus, longChatsCorpus, longTurnsCorpus, sharedWordCorpus, chatsRewordedCorpus, longLexicalCorpus, whoSaidCorpus]) {
    const built = make();
    it(`${built.name}: the committed file is what the generator writes, with evidence that exists and a frozen split`, () => {
      const committed = JSON.parse(readFileSync(join(import.meta.dirname, `${built.name}.json`), 'utf8')) as Corpus;
      expect(committed).toEqual(JSON.parse(JSON.stringify(built)));
      const ids = new Set(committed.docs.map((d) => d.id));
      expect(ids.size).toBe(committed.docs.length);
      for (const q of committed.questions) {
        expect(q.evidence.length).toBeGreaterThan(0);
        for (const e of q.evidence) expect(ids.has(e)).toBe(true);
      }
      // The questions of the frozen split alternate half and half; tuning questions added later (`tq…`) are tune only,
      // a later evaluation half (`eq…`) eval only.
      const later = committed.questions.filter((q) => q.id.startsWith('tq'));
      const heldOut = committed.questions.filter((q) => q.id.startsWith('eq'));
      const frozen = committed.questions.filter((q) => !q.id.startsWith('tq') && !q.id.startsWith('eq'));
      expect(later.every((q) => q.split === 'tune')).toBe(true);
      expect(heldOut.every((q) => q.split === 'eval')).toBe(true);
      const tune = frozen.filter((q) => q.split === 'tune').length;
      expect(Math.abs(2 * tune - frozen.length)).toBeLessThanOrEqual(1);
    });
  }

  it('long-chats: every kind of question splits half and half, and its evidence is a user turn', () => {
    const corpus = longChatsCorpus();
    const kinds = longChatKinds();
    const byId = new Map(corpus.docs.map((d) => [d.id, d]));
    for (const kind of new Set(kinds.values())) {
      const qs = corpus.questions.filter((q) => kinds.get(q.id) === kind);
      expect(qs.filter((q) => q.split === 'tune').length).toBe(qs.length / 2);
    }
    for (const q of corpus.questions) for (const e of q.evidence) expect(byId.get(e)?.name).toBe('user');
    expect(new Set(corpus.docs.map((d) => d.session)).size).toBeGreaterThanOrEqual(40);
  });

  it('long-turns: a tune half and an evaluation half of the same kinds, with user turns as evidence', () => {
    const corpus = longTurnsCorpus();
    const kinds = longTurnsKinds();
    const byId = new Map(corpus.docs.map((d) => [d.id, d]));
    const kindsOf = (split: 'tune' | 'eval') => new Set(corpus.questions.filter((q) => q.split === split).map((q) => kinds.get(q.id)));
    expect(kindsOf('eval')).toEqual(kindsOf('tune'));
    expect(corpus.questions.filter((q) => q.split === 'eval').length).toBeGreaterThanOrEqual(corpus.questions.filter((q) => q.split === 'tune').length);
    for (const q of corpus.questions) for (const e of q.evidence) expect(byId.get(e)?.name).toBe('user');
  });

  it('shared-word: tuning only, user turns as evidence, short turns that share the topical word, long answers', () => {
    const corpus = sharedWordCorpus();
    const kinds = sharedWordKinds();
    const byId = new Map(corpus.docs.map((d) => [d.id, d]));
    expect(corpus.questions.every((q) => q.split === 'tune' && q.id.startsWith('tq'))).toBe(true);
    expect(new Set(corpus.questions.map((q) => kinds.get(q.id)))).toEqual(new Set(['paraphrase', 'rare']));
    for (const q of corpus.questions) for (const e of q.evidence) expect(byId.get(e)?.name).toBe('user');
    const user = corpus.docs.filter((d) => d.name === 'user');
    const assistant = corpus.docs.filter((d) => d.name === 'assistant');
    expect(Math.max(...user.map((d) => d.content!.length))).toBeLessThanOrEqual(300);
    expect(Math.min(...assistant.map((d) => d.content!.length))).toBeGreaterThan(600);
  });

  it('chats-reworded: tuning only, over assistant-chats, short user turns as evidence, every kind present', () => {
    const corpus = chatsRewordedCorpus();
    const byId = new Map(corpus.docs.map((d) => [d.id, d]));
    expect(corpus.questions.every((q) => q.split === 'tune' && q.id.startsWith('tq'))).toBe(true);
    expect(corpus.docs.slice(0, chatsCorpus().docs.length)).toEqual(chatsCorpus().docs);
    expect(new Set(chatsRewordedKinds().values())).toEqual(new Set(['reworded', 'one-word', 'multi']));
    for (const q of corpus.questions) {
      for (const e of q.evidence) {
        expect(byId.get(e)?.name).toBe('user');
        expect(byId.get(e)!.content!.length).toBeLessThanOrEqual(300);
      }
    }
  });

  it('long-lexical: tuning only, over long-chats, long user turns (90–140 words) as evidence', () => {
    const corpus = longLexicalCorpus();
    const byId = new Map(corpus.docs.map((d) => [d.id, d]));
    expect(corpus.questions.every((q) => q.split === 'tune' && q.id.startsWith('tq'))).toBe(true);
    expect(corpus.docs.slice(0, longChatsCorpus().docs.length)).toEqual(longChatsCorpus().docs);
    expect(new Set(longLexicalKinds().values())).toEqual(new Set(['single', 'multi', 'temporal', 'update']));
    for (const q of corpus.questions) {
      for (const e of q.evidence) {
        const words = byId.get(e)!.content!.split(/\s+/).length;
        expect(byId.get(e)?.name).toBe('user');
        expect(words).toBeGreaterThanOrEqual(90);
        expect(words).toBeLessThanOrEqual(140);
      }
    }
  });

  it("who-said: tuning only, over long-chats, half the questions on the user's turn and half on the assistant's", () => {
    const corpus = whoSaidCorpus();
    const kinds = whoSaidKinds();
    const byId = new Map(corpus.docs.map((d) => [d.id, d]));
    expect(corpus.questions.length).toBeGreaterThanOrEqual(16);
    expect(corpus.questions.every((q) => q.split === 'tune' && q.id.startsWith('tq'))).toBe(true);
    expect(corpus.docs.slice(0, longChatsCorpus().docs.length)).toEqual(longChatsCorpus().docs);
    const of = (kind: 'asker' | 'assistant') => corpus.questions.filter((q) => kinds.get(q.id) === kind);
    expect(of('asker').length).toBe(of('assistant').length);
    for (const q of of('asker')) for (const e of q.evidence) expect(byId.get(e)?.name).toBe('user');
    for (const q of of('assistant')) for (const e of q.evidence) expect(byId.get(e)?.name).toBe('assistant');
    // Every question speaks in the first person: the asker's field is in play on both kinds.
    for (const q of corpus.questions) expect(q.q).toMatch(/\b(?:I|my|me)\b/u);
  });

  it('scores recall as the share of evidence in the first k', () => {
    expect(recallAt(['a', 'b'], ['x', 'a', 'y', 'b'], 2)).toBe(0.5);
    expect(recallAt(['a'], ['x'], 5)).toBe(0);
  });
});
