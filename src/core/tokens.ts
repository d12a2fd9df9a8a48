/**
 * Token counting with a real BPE tokenizer (js-tiktoken, ranks bundled in the package: no download).
 * The budget guarantee of `getContext` is stated in these tokens.
 */
import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { Lru } from './lru.js';

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
    // The ranks (megabytes each) load when a count is first asked for, and only the encoding in use.
    enc = new Tiktoken(createRequire(import.meta.url)(`js-tiktoken/ranks/${encoding}`) as TiktokenBPE);
    encoders.set(encoding, enc);
  }
  return enc;
}

/** Counts of texts up to this long are remembered (item lines, headers: the same memories recur across reads). */
const MEMO_MAX_CHARS = 2_000;
const MEMO_ENTRIES = 4_096;

export function createTokenCounter(encoding: TokenEncoding = 'cl100k_base'): TokenCounter {
  let loaded: Tiktoken | undefined;
  const enc = { encode: (t: string) => (loaded ??= encoder(encoding)).encode(t), decode: (ts: number[]) => (loaded ??= encoder(encoding)).decode(ts) };
  const memo = new Lru<string, number>(MEMO_ENTRIES);
  return {
    encoding,
    count(text) {
      if (text.length === 0) return 0;
      if (text.length > MEMO_MAX_CHARS) return enc.encode(text).length;
      return memo.getOrSet(text, (t) => enc.encode(t).length);
    },
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
