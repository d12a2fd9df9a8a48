/**
 * The flat-vector RAG agent: every text of every finished round is a chunk; retrieval is the top 5 chunks by
 * cosine to the report; precedents come from the chunks by the same cue parsing any raw text gets.
 */
import type { Embedder } from '../../../src/index.js';
import { fromText } from '../decide/precedents.js';
import type { ScenarioRound } from '../format.js';
import { roundTexts, type FactReport, type Retrieval, type ScenarioAgent } from './agent.js';
import { FlatVectorRag } from './flat-rag.js';

export const BASELINE_TOP_K = 5;

export function createBaselineAgent(embedder: Embedder, opts: { topK?: number } = {}): ScenarioAgent {
  const rag = new FlatVectorRag(embedder);
  const k = opts.topK ?? BASELINE_TOP_K;
  return {
    name: 'baseline',
    embed: (texts) => embedder.embed(texts),
    async retrieve(report: string): Promise<Retrieval> {
      const hits = await rag.search(report, k);
      return {
        items: hits.map((h) => ({ id: h.id, kind: 'chunk', outcome: null, fromRound: h.round, text: h.text })),
        precedents: hits.flatMap((h) => fromText(h.id, `${h.id} (round ${h.round})`, h.text) ?? []),
        contextText: hits.length ? ['## Retrieved past entries', ...hits.map((h, i) => `${i + 1}. ${h.text}`)].join('\n') : '(no memory yet)',
      };
    },
    async learn(round: ScenarioRound): Promise<void> {
      const t = roundTexts(round);
      await rag.add([t.report, ...t.notes, t.attemptedFix ?? '', t.assumption ?? '', t.outcomeLine, t.correctionLine ?? ''], round.round_num);
    },
    facts(): Promise<FactReport[]> {
      return Promise.resolve([]);
    },
    close(): Promise<void> {
      return Promise.resolve();
    },
  };
}
