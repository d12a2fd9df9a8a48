import { detectSecretAssignments } from './secret-assignments.js';
import { detectKnownTokens } from './secret-tokens.js';
import type { TextFeatures } from './features.js';
import type { Span } from './types.js';

/** API keys, tokens, passwords and private keys: by their own shape, or by the name they are assigned to. */
export function detectSecrets(text: string, f: TextFeatures): Span[] {
  return [...detectKnownTokens(text, f), ...detectSecretAssignments(text, f)];
}
