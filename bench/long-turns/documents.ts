/**
 * Long memories made from LoCoMo: each conversation's sessions, `group` at a time, imported as one transcript
 * memory (as a user importing a meeting or chat log would), with every question's evidence mapped to the
 * transcripts holding its turns. Dev conversations are the tuning half, the others the evaluation half.
 */
import type { Corpus, CorpusDoc, CorpusQuestion } from '../corpora/src/format.js';
import { DEV_SPLIT, type LocomoConversation } from '../locomo/dataset.js';

/** The transcript of some turns: a header line that is not a speaker label, then one "Speaker: text" line per turn. */
export function transcript(header: string, turns: LocomoConversation['turns']): string {
  return [header, ...turns.map((t) => `${t.speaker}: ${t.text}`)].join('\n');
}

export function longTurnCorpus(conversations: readonly LocomoConversation[], group: number): Corpus {
  if (!Number.isInteger(group) || group < 1) throw new RangeError(`group must be a whole number ≥ 1, got ${group}`);
  const docs: CorpusDoc[] = [];
  const questions: CorpusQuestion[] = [];
  for (const c of conversations) {
    const sessions = [...new Set(c.turns.map((t) => t.session))].sort((a, b) => a - b);
    const docOfSession = new Map<number, string>();
    for (let i = 0; i < sessions.length; i += group) {
      const part = sessions.slice(i, i + group);
      const id = `${c.id}/S${part[0]}-${part.at(-1)}`;
      const turns = c.turns.filter((t) => part.includes(t.session));
      const first = new Date(turns[0]!.ts).toISOString().slice(0, 10);
      for (const s of part) docOfSession.set(s, id);
      docs.push({ id, type: 'note', ts: new Date(turns[0]!.ts).toISOString(), content: transcript(`Transcript of sessions ${part[0]}–${part.at(-1)} (${first})`, turns) });
    }
    const sessionOfTurn = new Map(c.turns.map((t) => [t.diaId, t.session]));
    c.questions.forEach((q, n) => {
      const evidence = [...new Set(q.evidence.map((e) => docOfSession.get(sessionOfTurn.get(e)!)!).filter((d) => d !== undefined))];
      if (evidence.length === 0) return;
      questions.push({ id: `${c.id}/q${n}`, q: q.question, evidence, split: DEV_SPLIT.includes(c.id) ? 'tune' : 'eval' });
    });
  }
  return { name: `locomo-transcripts-${group}`, shape: `LoCoMo sessions imported ${group} at a time as one transcript memory`, docs, questions };
}
