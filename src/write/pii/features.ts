/**
 * Cheap facts about a text, gathered in one pass, that tell each detector whether its regexes could match at all.
 * Most writes hold no PII; for them the scrubber should cost one scan, not one scan per pattern. Every detector
 * must still be correct on its own: a feature is only ever a necessary condition for a match.
 */
export interface TextFeatures {
  /** Digits in the longest cluster whose digits are at most three separator characters (space tab - . / ( ) +) apart. */
  digitCluster: number;
  /** Longest run of characters that make up tokens and keys: letters, digits, `_` and `-`. */
  tokenRun: number;
  /** An upper-case letter directly followed by a digit (IBAN `DE89`, codice fiscale `A85`). */
  upperDigit: boolean;
  /** A digit, a dot and a digit (IPv4, also versions and decimals). */
  dotDigit: boolean;
  /** A colon between hex digits or colons (IPv6, also clock times and MAC addresses). */
  hexColon: boolean;
  /** An `=` or `:` anywhere (an assignment could be there). */
  assignment: boolean;
  at: boolean;
}

const MAX_GAP = 3;

export function textFeatures(text: string): TextFeatures {
  let digitCluster = 0;
  let cluster = 0;
  let gap = MAX_GAP + 1;
  let tokenRun = 0;
  let run = 0;
  let upperDigit = false;
  let dotDigit = false;
  let hexColon = false;
  let assignment = false;
  let at = false;
  let prev = 0;
  let prev2 = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57;
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    if (digit) {
      cluster = gap <= MAX_GAP ? cluster + 1 : 1;
      gap = 0;
      if (cluster > digitCluster) digitCluster = cluster;
      if (prev >= 65 && prev <= 90) upperDigit = true;
      if (prev === 46 && prev2 >= 48 && prev2 <= 57) dotDigit = true;
    } else if (c === 32 || c === 9 || c === 45 || c === 46 || c === 47 || c === 40 || c === 41 || c === 43) {
      gap++;
    } else {
      gap = MAX_GAP + 1;
    }
    if (digit || upper || lower || c === 95 || c === 45) {
      run++;
      if (run > tokenRun) tokenRun = run;
    } else {
      run = 0;
    }
    if (c === 58) {
      assignment = true;
      if (!hexColon && isHexOrColon(prev) && isHexOrColon(text.charCodeAt(i + 1))) hexColon = true;
    } else if (c === 61) {
      assignment = true;
    } else if (c === 64) {
      at = true;
    }
    prev2 = prev;
    prev = c;
  }
  return { digitCluster, tokenRun, upperDigit, dotDigit, hexColon, assignment, at };
}

function isHexOrColon(c: number): boolean {
  return (c >= 48 && c <= 58) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
