import { describe, expect, it } from 'vitest';
import type { LocomoConversation } from '../locomo/dataset.js';
import { longTurnCorpus } from './documents.js';

const turn = (session: number, j: number, speaker: string, text: string) => ({ diaId: `D${session}:${j}`, speaker, text, session, ts: Date.UTC(2023, 4, session, 10) + j * 1000 });

const conv = (id: string): LocomoConversation => ({
  id,
  turns: [turn(1, 1, 'Ann', 'I adopted a cat.'), turn(1, 2, 'Bo', 'Nice!'), turn(2, 1, 'Ann', 'I moved to Oslo.'), turn(3, 1, 'Bo', 'I sing.')],
  questions: [
    { question: 'Where did Ann move?', category: 1, evidence: ['D2:1'], skipped: [] },
    { question: 'Pets and songs?', category: 1, evidence: ['D1:1', 'D3:1', 'D1:2'], skipped: [] },
    { question: 'No evidence', category: 5, evidence: [], skipped: ['D9:9'] },
  ],
});

describe('longTurnCorpus', () => {
  it('imports sessions `group` at a time as transcripts and maps evidence to them', () => {
    const c = longTurnCorpus([conv('conv-26'), conv('conv-99')], 2);
    expect(c.docs.map((d) => d.id)).toEqual(['conv-26/S1-2', 'conv-26/S3-3', 'conv-99/S1-2', 'conv-99/S3-3']);
    expect(c.docs[0]!.content).toBe('Transcript of sessions 1–2 (2023-05-01)\nAnn: I adopted a cat.\nBo: Nice!\nAnn: I moved to Oslo.');
    expect(c.questions.map((q) => [q.id, q.evidence, q.split])).toEqual([
      ['conv-26/q0', ['conv-26/S1-2'], 'tune'],
      ['conv-26/q1', ['conv-26/S1-2', 'conv-26/S3-3'], 'tune'],
      ['conv-99/q0', ['conv-99/S1-2'], 'eval'],
      ['conv-99/q1', ['conv-99/S1-2', 'conv-99/S3-3'], 'eval'],
    ]);
  });

  it('gives a transcript no speaker label of its own', () => {
    const c = longTurnCorpus([conv('conv-26')], 1);
    expect(c.docs).toHaveLength(3);
    for (const d of c.docs) expect(d.content!.split('\n')[0]).toMatch(/^Transcript of sessions \d+–\d+ \(/);
    expect(() => longTurnCorpus([], 0)).toThrow(RangeError);
  });
});
