import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PII_KINDS, type PiiKind } from '../../core/types.js';
import { PII_CORPUS, PII_LOOKALIKES } from './corpus.js';
import { detectorsFor } from './detectors.js';
import { textFeatures, type TextFeatures } from './features.js';
import { createFinder } from './find.js';

const find = createFinder({ kinds: PII_KINDS, defaultCountry: 'US' });
const found = (text: string): [PiiKind, string][] => find(text).map((s) => [s.kind, text.slice(s.start, s.end)]);

// Features that let every detector run its full scan.
const EVERYTHING: TextFeatures = {
  digitCluster: Number.MAX_SAFE_INTEGER,
  tokenRun: Number.MAX_SAFE_INTEGER,
  upperDigit: true,
  dotDigit: true,
  hexColon: true,
  assignment: true,
  at: true,
};

describe('features', () => {
  it('only ever skip work: every detector finds the same with and without them', () => {
    const detectors = detectorsFor(PII_KINDS, { defaultCountry: 'US' });
    const text = fc.oneof(
      fc.constantFrom(...PII_CORPUS.map((s) => s.text), ...PII_LOOKALIKES),
      fc.stringMatching(/^[0-9 \t.:+()\-@A-Fa-f=_/%#xX]{0,60}$/),
      fc.string({ maxLength: 60 }),
    );
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }).map((p) => p.join(' ')), (t) => {
        const f = textFeatures(t);
        for (const detect of detectors) expect(detect(t, f)).toEqual(detect(t, EVERYTHING));
      }),
      { numRuns: 300 },
    );
  });

  it('measure digit clusters across short separators only', () => {
    expect(textFeatures('call (415) 555-2671').digitCluster).toBe(10);
    expect(textFeatures('12 34\n56').digitCluster).toBe(4);
    expect(textFeatures('1    2').digitCluster).toBe(1);
    expect(textFeatures('key AKIAIOSFODNN7EXAMPLE').tokenRun).toBe(20);
  });
});

describe('detectors', () => {
  it('phone: national, international, 00-prefixed, with extension', () => {
    expect(found('dial 0049 30 901820 from Spain')).toEqual([['phone', '0049 30 901820']]);
    expect(found('office 415 555 2671 ext. 22, thanks')).toEqual([['phone', '415 555 2671 ext. 22']]);
    expect(found('two: 415-555-2671 212-555-0100')).toEqual([
      ['phone', '415-555-2671'],
      ['phone', '212-555-0100'],
    ]);
    // Glued into a version string or an identifier.
    expect(found('build v1.415.555.2671 and id4155552671x')).toEqual([]);
  });

  it('phone: reads national numbers as the configured country', () => {
    const gb = createFinder({ kinds: ['phone'], defaultCountry: 'GB' });
    expect(gb('mobile 07911 123456 or 020 7946 0958').length).toBe(2);
    expect(find('mobile 07911 123456')).toEqual([]);
  });

  it('card: grouped prefixes, and not inside longer digit runs or hex', () => {
    expect(found('pay 4111 1111 1111 1111 4111 now')).toEqual([['card', '4111 1111 1111 1111']]);
    expect(found('id 94111111111111111 and 4111111111111111.5')).toEqual([]);
    expect(found('hash ab4111111111111111cd')).toEqual([]);
    expect(found('mixed 4111-1111 1111-1111')).toEqual([]);
  });

  it('iban: stops at the country length and refuses a glued tail', () => {
    expect(found('to DE89 3704 0044 0532 0130 00 SENT')).toEqual([['iban', 'DE89 3704 0044 0532 0130 00']]);
    expect(found('to DE89370400440532013000abc')).toEqual([]);
    expect(found('XX89370400440532013000')).toEqual([]);
  });

  it('ip: glued after a word, zone ids, CIDR, and what is not an address', () => {
    expect(found('addr:fe80::1ff:fe23:4567:890a%eth0 up')).toEqual([['ip', 'fe80::1ff:fe23:4567:890a%eth0']]);
    expect(found('net 10.1.2.0/24 routed')).toEqual([['ip', '10.1.2.0']]);
    expect(found('see Foo::Bar, a::b, dead::beef, ::1 and 12:30:45')).toEqual([]);
    expect(found('release 4.3.2.1 and ver. 10.0.0.1')).toEqual([]);
    expect(found('octets 256.1.1.1 and 01.2.3.4')).toEqual([]);
  });

  it('gov ids: labels are required for bare forms', () => {
    expect(found('ref 536904399 shipped')).toEqual([]);
    expect(found('SSN is 536904399')).toEqual([['gov_id', '536904399']]);
    expect(found('order 599951234562 shipped')).toEqual([]);
    expect(found('SIN 130 692 544 and sin 130692544')).toEqual([['gov_id', '130 692 544']]);
    expect(found('NINO GB 12 34 56 A and TN123456B')).toEqual([]);
  });

  it('secrets: assignments in code, config, JSON-in-strings and URLs', () => {
    expect(found('const token = "abc123def456";')).toEqual([['secret', 'abc123def456']]);
    expect(found('{\\"password\\":\\"hunter2\\"}')).toEqual([['secret', 'hunter2']]);
    expect(found('GET /cb?access_token=ya29.a0AfH6SM&state=xyz')).toEqual([['secret', 'ya29.a0AfH6SM']]);
    expect(found("$config = ['db_pass' => 'Tr0ub4dor'];")).toEqual([['secret', 'Tr0ub4dor']]);
    expect(found('DB_PASSWORD=Tr0ub4dor&3 in .env')).toEqual([['secret', 'Tr0ub4dor&3']]);
    expect(found('if (token == expected) and password != other')).toEqual([]);
    expect(found('password=$DB_PASSWORD token=<your-token> secret=*** api_key=${KEY}')).toEqual([]);
    expect(found('Authorization: Basic dXNlcjpwYXNz')).toEqual([['secret', 'dXNlcjpwYXNz']]);
    // A value of punctuation only is no credential (found by the scrubber's property test).
    expect(found('https://api.example.com::@@51 and password=--- here')).toEqual([]);
    expect(found('postgres://app:S3cr3tPa55@db.internal:5432/app')).toEqual([['secret', 'S3cr3tPa55']]);
  });

  it('secrets: a PEM key cut off before its END line is redacted to the end', () => {
    const text = 'key:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC';
    expect(found(text)).toEqual([['secret', text.slice(5)]]);
  });
});
