import type { TextFeatures } from '../features.js';
import { codiceFiscaleValid } from '../checksums.js';
import { collect, type Span } from '../types.js';

/**
 * Italian codice fiscale (`RSSMRA85T10A562S`): surname/name letters, birth date and place, and a check letter.
 * Digit positions may hold the letters L–V when two people would otherwise share a code (omocodia).
 */
const D = '[0-9LMNPQRSTUV]';
const CF = new RegExp(`(?<![A-Za-z0-9])[A-Z]{6}${D}{2}[ABCDEHLMPRST]${D}{2}[A-Z]${D}{3}[A-Z](?![A-Za-z0-9])`, 'g');

export function detectCodiceFiscale(text: string, f: TextFeatures): Span[] {
  if (!f.upperDigit) return [];
  return collect(CF, text, 'gov_id', (m) =>
    // An all-letter match is an upper-case word that happens to fit; real codes carry at least one digit.
    /\d/.test(m[0]) && codiceFiscaleValid(m[0]) ? { start: m.index, end: m.index + m[0].length } : undefined,
  );
}
