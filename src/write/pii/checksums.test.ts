import { describe, expect, it } from 'vitest';
import { bsnValid, codiceFiscaleValid, cpfValid, ibanMod97Valid, luhnValid, spanishIdValid, verhoeffValid } from './checksums.js';

describe('check digits', () => {
  it('Luhn accepts issued test cards and rejects a changed digit', () => {
    for (const n of ['4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', '130692544']) {
      expect(luhnValid(n)).toBe(true);
      const last = Number(n.at(-1));
      expect(luhnValid(n.slice(0, -1) + String((last + 1) % 10))).toBe(false);
    }
    expect(luhnValid('')).toBe(false);
    expect(luhnValid('4111-1111')).toBe(false);
  });

  it('IBAN mod-97 accepts published examples and rejects a swapped pair', () => {
    for (const iban of ['DE89370400440532013000', 'GB82WEST12345698765432', 'FR1420041010050500013M02606', 'NO9386011117947']) {
      expect(ibanMod97Valid(iban)).toBe(true);
      expect(ibanMod97Valid(iban.slice(0, 6) + iban[7] + iban[6] + iban.slice(8))).toBe(iban[6] === iban[7]);
    }
    expect(ibanMod97Valid('de89370400440532013000')).toBe(false);
  });

  it('Verhoeff catches every single-digit change', () => {
    const valid = '234567890124';
    expect(verhoeffValid(valid)).toBe(true);
    for (let i = 0; i < valid.length; i++) {
      for (let d = 0; d < 10; d++) {
        if (String(d) === valid[i]) continue;
        expect(verhoeffValid(valid.slice(0, i) + d + valid.slice(i + 1))).toBe(false);
      }
    }
  });

  it('Spanish DNI and NIE letters follow mod 23', () => {
    expect(spanishIdValid('12345678Z')).toBe(true);
    expect(spanishIdValid('12345678A')).toBe(false);
    expect(spanishIdValid('X1234567L')).toBe(true);
    expect(spanishIdValid('Y7654321G')).toBe(true);
    expect(spanishIdValid('X12345678L')).toBe(false);
    expect(spanishIdValid('1234567Z')).toBe(false);
  });

  it('CPF, codice fiscale and BSN', () => {
    expect(cpfValid('52998224725')).toBe(true);
    expect(cpfValid('52998224726')).toBe(false);
    expect(cpfValid('11111111111')).toBe(false);
    expect(codiceFiscaleValid('RSSMRA85T10A562S')).toBe(true);
    expect(codiceFiscaleValid('RSSMRA85T10A562T')).toBe(false);
    expect(bsnValid('111222333')).toBe(true);
    expect(bsnValid('111222334')).toBe(false);
  });
});
