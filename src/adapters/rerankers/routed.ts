/**
 * Picks the reranker per call from `semantic_retrieval.reranker.model`:
 *  - `heuristic` always means the built-in reranker;
 *  - with an HTTP reranker configured, every other call goes to it (a model name, when given, is passed on);
 *  - without one, every call uses the built-in reranker, so a config written for a cross-encoder (seed 000's
 *    `"model": "cross_encoder_mini"`) still works offline.
 */
import type { Reranker } from '../../ports/reranker.js';

export const HEURISTIC_MODEL = 'heuristic';

export function createModelRoutedReranker(parts: { heuristic: Reranker; remote?: Reranker | undefined }): Reranker {
  const { heuristic, remote } = parts;
  return {
    name: remote ? `${heuristic.name}|${remote.name}` : heuristic.name,
    rerank(query, candidates, opts = {}) {
      const { model, signal } = opts;
      if (!remote || model === HEURISTIC_MODEL) return heuristic.rerank(query, candidates, { signal });
      return remote.rerank(query, candidates, model === undefined ? { signal } : { model, signal });
    },
  };
}
