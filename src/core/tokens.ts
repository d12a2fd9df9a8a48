/**
 * Token counting with a real BPE tokenizer (js-tiktoken, ranks bundled in the package: no download).
 * The budget guarantee of `getContext` is stated in these tokens.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';

export type TokenEncoding = 'cl100k_base' | 'o200k_base';

export interface TokenCounter {
  readonly encoding: TokenEncoding;
  count(text: string): number;
  /** The longest prefix of `text` (cut at a token boundary) with at most `maxTokens` tokens. */
  truncate(text: string, maxTokens: number): string;
}

const encoders = new Map<TokenEncoding, Tiktoken>();

function encoder(encoding: TokenEncoding): Tiktoken {
  let enc = encoders.get(encoding);
  if (!enc) {
    enc = new Tiktoken(encoding === 'cl100k_base' ? cl100k : o200k);
    encoders.set(encoding, enc);
  }
  return enc;
}

export function createTokenCounter(encoding: TokenEncoding = 'cl100k_base'): TokenCounter {
  const enc = encoder(encoding);
  return {
    encoding,
    count: (text) => (text.length === 0 ? 0 : enc.encode(text).length),
    truncate(text, maxTokens) {
      if (maxTokens <= 0) return '';
      const tokens = enc.encode(text);
      if (tokens.length <= maxTokens) return text;
      // Decoding a cut can split a multi-byte character; back off until the prefix round-trips within budget.
      for (let n = maxTokens; n > 0; n--) {
        const prefix = enc.decode(tokens.slice(0, n)).replace(/\uFFFD+$/, '');
        if (enc.encode(prefix).length <= maxTokens) return prefix;
      }
      return '';
    },
  };
}
