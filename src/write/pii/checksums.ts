/**
 * Check-digit algorithms. Detectors lean on these to tell real identifiers from look-alike numbers:
 * a random digit string passes Luhn or Verhoeff one time in ten, mod-97 one time in ninety-seven.
 * Every function takes the bare digits/characters (no separators) and never throws.
 */

/** Luhn (ISO/IEC 7812): payment cards, Canadian SIN. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** ISO 7064 mod 97-10 as IBAN uses it: move the first four characters to the end, letters count A=10…Z=35. */
export function ibanMod97Valid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    rem = value > 9 ? (rem * 100 + value) % 97 : (rem * 10 + value) % 97;
  }
  return rem === 1;
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
] as const;
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 8, 7, 6, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
] as const;

/** Verhoeff dihedral-group check (Aadhaar): catches every single-digit error and adjacent swap. */
export function verhoeffValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let c = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    c = VERHOEFF_D[c]![VERHOEFF_P[i % 8]![d]!]!;
  }
  return c === 0;
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish DNI (8 digits) or NIE (X/Y/Z + 7 digits): the letter is the number mod 23 looked up in a table. */
export function spanishIdValid(id: string): boolean {
  const m = /^([XYZ]?)(\d{7,8})([A-Z])$/.exec(id);
  if (!m) return false;
  const [, prefix, digits, letter] = m as unknown as [string, string, string, string];
  if (prefix === '' ? digits.length !== 8 : digits.length !== 7) return false;
  const lead = prefix === '' ? '' : String('XYZ'.indexOf(prefix));
  return DNI_LETTERS[Number(lead + digits) % 23] === letter;
}

/** Brazilian CPF: two mod-11 check digits; sequences of one repeated digit are valid by arithmetic but never issued. */
export function cpfValid(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const check = (len: number): number => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += (digits.charCodeAt(i) - 48) * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === digits.charCodeAt(9) - 48 && check(10) === digits.charCodeAt(10) - 48;
}

// Values of characters in odd (1st, 3rd, …) positions of an Italian codice fiscale, indexed 0-9 then A-Z.
const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/** Italian codice fiscale: the 16th letter is a weighted sum of the first 15 characters mod 26. */
export function codiceFiscaleValid(cf: string): boolean {
  if (!/^[A-Z0-9]{15}[A-Z]$/.test(cf)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const code = cf.charCodeAt(i);
    const isDigit = code < 65;
    if (i % 2 === 0) sum += CF_ODD[isDigit ? code - 48 : code - 65]!;
    else sum += isDigit ? code - 48 : code - 65;
  }
  return String.fromCharCode(65 + (sum % 26)) === cf[15];
}

/** Dutch BSN "elfproef": 9·d1 + 8·d2 + … + 2·d8 − d9 is a multiple of 11. */
export function bsnValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits) || /^0+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (digits.charCodeAt(i) - 48) * (9 - i);
  sum -= digits.charCodeAt(8) - 48;
  return sum % 11 === 0;
}
