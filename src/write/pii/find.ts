import type { CountryCode } from 'libphonenumber-js/max';
import type { PiiKind } from '../../core/types.js';
import { detectorsFor } from './detectors.js';
import { textFeatures } from './features.js';
import { resolveOverlaps } from './spans.js';
import type { Span } from './types.js';

export interface FinderOptions {
  kinds: readonly PiiKind[];
  defaultCountry: CountryCode;
}

/** Finds all PII in a text: resolved, non-overlapping spans in text order. */
export type Finder = (text: string) => Span[];

// Stands in for text already claimed by another finding. Not a digit, letter, separator or extension mark, so
// libphonenumber sees a hard break there.
const MASK = '\u0000';

/**
 * Runs the selected detectors over a text. Phone numbers go last, over the text with every other finding masked
 * out: libphonenumber is by far the slowest detector (~0.1 ms per candidate), and a card, IBAN, id or address
 * already found would win the overlap anyway, so it need not look at their digits.
 */
export function createFinder(opts: FinderOptions): Finder {
  const kinds = new Set(opts.kinds);
  const phone = kinds.has('phone');
  kinds.delete('phone');
  const others = detectorsFor([...kinds], { defaultCountry: opts.defaultCountry });
  const [phoneDetect] = phone ? detectorsFor(['phone'], { defaultCountry: opts.defaultCountry }) : [];

  return (text) => {
    if (text.length === 0 || (others.length === 0 && !phoneDetect)) return [];
    const features = textFeatures(text);
    const spans: Span[] = [];
    for (const detect of others) spans.push(...detect(text, features));
    if (phoneDetect && features.digitCluster >= 7) {
      const masked = spans.length === 0 ? text : mask(text, spans);
      spans.push(...phoneDetect(masked, masked === text ? features : textFeatures(masked)));
    }
    return resolveOverlaps(spans);
  };
}

function mask(text: string, spans: readonly Span[]): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    if (s.end <= at) continue;
    const from = Math.max(at, s.start);
    out += text.slice(at, from) + MASK.repeat(s.end - from);
    at = s.end;
  }
  return out + text.slice(at);
}
