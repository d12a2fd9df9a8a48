import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { piiConfigSchema, type PiiConfig } from '../core/config.js';
import { isEngramError } from '../core/errors.js';
import { PII_KINDS, type Json, type PiiKind } from '../core/types.js';
import { PII_CORPUS, PII_LOOKALIKES } from './pii/corpus.js';
import { PLACEHOLDERS } from './pii/types.js';
import { createScrubber, mergeReports } from './scrub.js';

const config = (over: Partial<PiiConfig> = {}): PiiConfig => piiConfigSchema.parse(over);
const scrubber = createScrubber(config());

describe('PII corpus', () => {
  it('is large and covers every kind several times', () => {
    expect(PII_CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(PII_LOOKALIKES.length).toBeGreaterThanOrEqual(40);
    for (const kind of PII_KINDS) expect(PII_CORPUS.filter((s) => s.kind === kind).length).toBeGreaterThanOrEqual(5);
    for (const s of PII_CORPUS) expect(s.text).toContain(s.secret);
  });

  it.each(PII_CORPUS.map((s) => [s.kind, s.text, s] as const))('replaces and counts %s in %j', (kind, _text, s) => {
    const { text, report } = scrubber.scrub(s.text);
    expect(text).not.toContain(s.secret);
    expect(text).toContain(PLACEHOLDERS[kind]);
    expect(report).toEqual({ scrubbed: true, counts: { [kind]: 1 } });
    // The span is exactly the PII: nothing around it is lost.
    const spans = scrubber.find(s.text);
    expect(spans.map((sp) => [sp.kind, s.text.slice(sp.start, sp.end)])).toEqual([[kind, s.secret]]);
    expect(text).toBe(s.text.replace(s.secret, PLACEHOLDERS[kind]));
  });

  it.each(PII_LOOKALIKES.map((t) => [t] as const))('leaves the look-alike %j alone', (t) => {
    const { text, report } = scrubber.scrub(t);
    expect(scrubber.find(t)).toEqual([]);
    expect(text).toBe(t);
    expect(report).toEqual({ scrubbed: false, counts: {} });
  });

  it('scrubs every finding in a text holding many and counts each kind', () => {
    const joined = PII_CORPUS.map((s) => s.text).join('\n');
    const { text, report } = scrubber.scrub(joined);
    for (const s of PII_CORPUS) expect(text).not.toContain(s.secret);
    const expected: Partial<Record<PiiKind, number>> = {};
    for (const s of PII_CORPUS) expected[s.kind] = (expected[s.kind] ?? 0) + 1;
    expect(report).toEqual({ scrubbed: true, counts: expected });
  });
});

describe('configuration', () => {
  it('falls back to the next kind when a disabled one would have won the overlap', () => {
    const s = createScrubber(config({ kinds: PII_KINDS.filter((k) => k !== 'secret') }));
    expect(s.scrub('https://ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8@github.com/x').report.counts).toEqual({ email: 1 });
    expect(s.scrub('password=hunter2 sk-proj-Xk4mP9qR2sT7vW1yZ3bC5dF8gH0jK6nL').text).toBe(
      'password=hunter2 sk-proj-Xk4mP9qR2sT7vW1yZ3bC5dF8gH0jK6nL',
    );
  });

  it('leaves a disabled kind alone and still scrubs the others', () => {
    for (const kind of PII_KINDS) {
      const without = createScrubber(config({ kinds: PII_KINDS.filter((k) => k !== kind) }));
      for (const s of PII_CORPUS.filter((c) => c.kind === kind)) {
        const r = without.scrub(s.text);
        expect(r.report.counts[kind]).toBeUndefined();
        // Unchanged, unless another enabled kind claims the same characters (a token in `token@host` reads as an email).
        if (r.report.scrubbed) expect(without.find(s.text).every((sp) => sp.kind !== kind)).toBe(true);
        else expect(r.text).toBe(s.text);
      }
      const only = createScrubber(config({ kinds: [kind] }));
      for (const s of PII_CORPUS.filter((c) => c.kind === kind)) {
        expect(only.scrub(s.text).report).toEqual({ scrubbed: true, counts: { [kind]: 1 } });
      }
    }
  });

  it('returns input unchanged when disabled', () => {
    const off = createScrubber(config({ enabled: false }));
    for (const s of PII_CORPUS) expect(off.scrub(s.text)).toEqual({ text: s.text, report: { scrubbed: false, counts: {} } });
    const doc: Json = { email: 'john.doe@example.com', password: 'hunter2' };
    expect(off.scrubJson(doc).value).toBe(doc);
    expect(off.find('john.doe@example.com')).toEqual([]);
  });

  it('treats an empty kinds list like disabled', () => {
    const none = createScrubber(config({ kinds: [] }));
    expect(none.scrub('mail john.doe@example.com').text).toBe('mail john.doe@example.com');
    expect(none.scrubJson({ password: 'hunter2' }).value).toEqual({ password: 'hunter2' });
  });

  it('reads national phone formats in the default country', () => {
    const uk = 'Ring 020 7946 0958 after lunch.';
    expect(createScrubber(config({ defaultCountry: 'gb' })).scrub(uk).text).toBe('Ring [PHONE] after lunch.');
    expect(createScrubber(config({ defaultCountry: 'US' })).scrub(uk).text).toBe(uk);
  });

  it('rejects an unknown default country with a CONFIG error naming the field', () => {
    try {
      createScrubber(config({ defaultCountry: 'QQ' }));
      expect.unreachable();
    } catch (e) {
      expect(isEngramError(e, 'CONFIG')).toBe(true);
      if (isEngramError(e)) expect(e.issues[0]?.path).toBe('pii.defaultCountry');
    }
  });
});

describe('overlaps', () => {
  it('lets the more specific kind win over the span around or inside it', () => {
    const token = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const r = scrubber.scrub(`remote https://${token}@github.com/acme/app.git`);
    expect(r.text).toBe('remote https://[SECRET]@github.com/acme/app.git');
    expect(r.report.counts).toEqual({ secret: 1 });
  });

  it('takes an IPv4-mapped IPv6 address whole rather than the IPv4 inside it', () => {
    expect(scrubber.find('from ::ffff:198.51.100.7 today').map((s) => s.end - s.start)).toEqual(['::ffff:198.51.100.7'.length]);
  });

  it('scrubs a card followed by more numbers without eating them', () => {
    expect(scrubber.scrub('card 4111 1111 1111 1111 12 27 ok').text).toBe('card [CARD] 12 27 ok');
  });
});

describe('scrubJson', () => {
  it('keeps structure, scrubs strings, keys and long integers, and redacts credential-named keys', () => {
    const input: Json = {
      user: { name: 'Jane', email: 'jane@example.com', phone: 4155552671, age: 41 },
      tags: ['vip', 'call +44 20 7946 0958'],
      headers: { Authorization: 'Bearer abc', 'X-Api-Key': 12345, 'Content-Type': 'application/json' },
      db: { password: 'hunter2', passwordPolicy: 'min 12 chars', token_count: 7, max_tokens: 4096 },
      clientSecret: { nested: 'value', other: 'jane@example.com' },
      accessToken: '',
      apiKey: null,
      secretEnabled: true,
      'jane@example.com': 'keyed by email',
      ok: true,
      ratio: 0.5,
      nothing: null,
    };
    const { value, report } = scrubber.scrubJson(input);
    expect(value).toEqual({
      user: { name: 'Jane', email: '[EMAIL]', phone: '[PHONE]', age: 41 },
      tags: ['vip', 'call [PHONE]'],
      headers: { Authorization: '[SECRET]', 'X-Api-Key': '[SECRET]', 'Content-Type': 'application/json' },
      db: { password: '[SECRET]', passwordPolicy: 'min 12 chars', token_count: 7, max_tokens: 4096 },
      clientSecret: { nested: 'value', other: '[EMAIL]' },
      accessToken: '',
      apiKey: null,
      secretEnabled: true,
      '[EMAIL]': 'keyed by email',
      ok: true,
      ratio: 0.5,
      nothing: null,
    });
    expect(report).toEqual({ scrubbed: true, counts: { email: 3, phone: 2, secret: 3 } });
  });

  it('keeps keys distinct when two scrub to the same placeholder', () => {
    const { value } = scrubber.scrubJson({ 'a@example.com': 1, 'b@example.com': 2, '[EMAIL]#2': 3 });
    expect(value).toEqual({ '[EMAIL]': 1, '[EMAIL]#2': 2, '[EMAIL]#2#2': 3 });
    expect(Object.keys(value as object)).toHaveLength(3);
  });

  it('returns the same object when nothing needed scrubbing', () => {
    const input: Json = { a: [1, 'two', { three: 3 }], b: 'plain text', max_tokens: 10 };
    const { value, report } = scrubber.scrubJson(input);
    expect(value).toBe(input);
    expect(report).toEqual({ scrubbed: false, counts: {} });
  });

  it('copies rather than mutates, and keeps __proto__ as a plain key', () => {
    const input = JSON.parse('{"__proto__": {"email": "x@example.com"}, "list": ["y@example.com"]}') as Json;
    const before = JSON.stringify(input);
    const { value } = scrubber.scrubJson(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"email":"[EMAIL]"},"list":["[EMAIL]"]}');
  });

  it('leaves credential-named keys alone when the secret kind is disabled', () => {
    const s = createScrubber(config({ kinds: ['email'] }));
    expect(s.scrubJson({ password: 'hunter2', mail: 'a@example.com' }).value).toEqual({ password: 'hunter2', mail: '[EMAIL]' });
  });

  it('scrubs a top-level string or number', () => {
    expect(scrubber.scrubJson('mail a@example.com').value).toBe('mail [EMAIL]');
    expect(scrubber.scrubJson(4111111111111111).value).toBe('[CARD]');
    expect(scrubber.scrubJson(1234567890123).value).toBe(1234567890123);
  });
});

describe('mergeReports', () => {
  it('sums counts and ors the flag', () => {
    expect(
      mergeReports(
        { scrubbed: true, counts: { email: 2 } },
        { scrubbed: false, counts: {} },
        { scrubbed: true, counts: { email: 1, ip: 3 } },
      ),
    ).toEqual({ scrubbed: true, counts: { email: 3, ip: 3 } });
    expect(mergeReports()).toEqual({ scrubbed: false, counts: {} });
    expect(mergeReports({ scrubbed: false, counts: {} })).toEqual({ scrubbed: false, counts: {} });
  });
});

/** Start offsets of every (possibly overlapping) occurrence of `needle` in `hay`. */
function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

describe('properties', () => {
  const corpusText = fc.constantFrom(...PII_CORPUS.map((s) => s.text), ...PII_LOOKALIKES);
  const piece = fc.oneof(
    corpusText,
    fc.string({ maxLength: 40 }),
    fc.stringMatching(/^[0-9 .:+()\-@A-Fa-f]{1,30}$/),
    fc.constantFrom(...Object.values(PLACEHOLDERS)),
  );
  const text = fc.array(piece, { maxLength: 6 }).chain((parts) =>
    fc.array(fc.constantFrom(' ', '', '\n', ', ', ':', '='), { minLength: parts.length, maxLength: parts.length }).map(
      (seps) => parts.map((p, i) => p + (seps[i] ?? '')).join(''),
    ),
  );

  it('is idempotent and leaves nothing detectable behind', () => {
    fc.assert(
      fc.property(text, (t) => {
        const once = scrubber.scrub(t);
        expect(scrubber.find(once.text)).toEqual([]);
        const twice = scrubber.scrub(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.report.scrubbed).toBe(false);
        // A detected secret survives only where the input also had it inside a token that is not one (a longer
        // look-alike: "NL91ABNA04171643000" holds the IBAN "NL91ABNA0417164300").
        const spans = scrubber.find(t);
        for (const s of spans) {
          const secret = t.slice(s.start, s.end);
          const uncovered = occurrences(t, secret).filter((i) => !spans.some((x) => x.start <= i && i + secret.length <= x.end));
          expect(occurrences(once.text, secret).length).toBeLessThanOrEqual(uncovered.length);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('removes an IPv4 address glued to a word by an underscore, on either side', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const address = fc.tuple(fc.integer({ min: 1, max: 254 }).filter((a) => a !== 127), octet, octet, octet).map((o) => o.join('.'));
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/).filter((w) => !/^(v|version|ver|release)$/.test(w));
    fc.assert(
      fc.property(address, word, fc.boolean(), fc.constantFrom('', 'error: ', 'node '), fc.constantFrom('', ' failed', '.', ' timed out'), (ip, w, before, pre, post) => {
        const token = before ? `${w}_${ip}` : `${ip}_${w}`;
        const out = scrubber.scrub(`${pre}${token}${post}`);
        expect(out.text).not.toContain(ip);
        expect(out.text).toBe(`${pre}${before ? `${w}_[IP]` : `[IP]_${w}`}${post}`);
        expect(out.report.counts.ip).toBe(1);
      }),
      { numRuns: 300 },
    );
    expect(scrubber.scrub('host_10.0.0.12 failed').text).toBe('host_[IP] failed');
    // A version glued the same way stays a version.
    expect(scrubber.scrub('release_1.2.3.4 shipped').text).toBe('release_1.2.3.4 shipped');
  });

  it('removes every corpus secret wherever it is embedded', () => {
    const sample = fc.constantFrom(...PII_CORPUS);
    fc.assert(
      fc.property(sample, fc.constantFrom('', 'Note: ', '> ', '(', '"', '\t'), fc.constantFrom('', '.', ')', '"', ' and more'), (s, pre, post) => {
        const out = scrubber.scrub(pre + s.text + post);
        expect(out.text).not.toContain(s.secret);
        expect(out.report.counts[s.kind]).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('counts exactly the placeholders it wrote', () => {
    fc.assert(
      fc.property(text, (t) => {
        const { text: out, report } = scrubber.scrub(t);
        const before = Object.values(PLACEHOLDERS).reduce((n, p) => n + t.split(p).length - 1, 0);
        const after = Object.values(PLACEHOLDERS).reduce((n, p) => n + out.split(p).length - 1, 0);
        const counted = Object.values(report.counts).reduce((n, c) => n + (c ?? 0), 0);
        expect(after - before).toBe(counted);
      }),
      { numRuns: 300 },
    );
  });
});
