/**
 * An embedder for tests that embed the same texts again and again (a benchmark's two agents are given the same
 * rounds to read): each distinct text goes to the model once, later requests get the vector it gave. The model
 * gives a text the same vector whatever batch it came in, up to float rounding, so what the test measures is
 * unchanged; only the repeated model time goes.
 */
import type { EmbedOptions, Embedder } from '../src/ports/embedder.js';

export interface RememberingEmbedder extends Embedder {
  /** Texts the model has embedded, and texts answered from memory. */
  readonly counts: { embedded: number; remembered: number };
}

export function rememberingEmbedder(inner: Embedder): RememberingEmbedder {
  const vectors = new Map<string, Float32Array>();
  const counts = { embedded: 0, remembered: 0 };
  return {
    get model() {
      return inner.model;
    },
    get dimension() {
      return inner.dimension;
    },
    counts,
    init: () => inner.init(),
    async embed(texts: readonly string[], opts?: EmbedOptions): Promise<Float32Array[]> {
      const missing = [...new Set(texts.filter((t) => !vectors.has(t)))];
      if (missing.length > 0) {
        const fresh = await inner.embed(missing, opts);
        missing.forEach((t, i) => vectors.set(t, fresh[i]!));
      }
      counts.embedded += missing.length;
      counts.remembered += texts.length - missing.length;
      // A copy each time: a caller may normalise or scale its vectors in place.
      return texts.map((t) => Float32Array.from(vectors.get(t)!));
    },
    close: () => inner.close(),
  };
}
