import { isIPv6 } from 'node:net';
import type { TextFeatures } from './features.js';
import { collect, type Span } from './types.js';

/**
 * IP addresses. IPv4 needs four octets of 0–255 without leading zeros, so `1.2.3` (semver), `1.2.3.4.5` and
 * `01.02.2024` are not addresses; a dotted quad right after `v` or `version` is a version number. An address
 * glued to a word by `_` (`host_10.0.0.12`) is still one; glued to a letter or digit it is part of that token.
 * IPv6 candidates are validated by node's own parser (compressed `::` forms, zone ids and embedded IPv4 included).
 * Loopback, unspecified and all-ones/netmask addresses identify no one and are left in place.
 */

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
// `_` glues words in identifiers and log tokens (`host_10.0.0.12`, `10.0.0.12_primary`): a boundary, as in prose.
const IPV4 = new RegExp(`(?<![A-Za-z0-9.])${OCTET}(?:\\.${OCTET}){3}(?![A-Za-z0-9]|\\.\\d)`, 'g');
const VERSION_LABEL = /(?:\bv|\bversion[\s_]*|\bver\.?[\s_]*|\brelease[\s_]*)$/i;

// Hex groups and colons (and a dotted IPv4 tail), then an optional zone id, not glued to word characters or colons.
const IPV6 = /(?:[0-9A-Fa-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{1,4})?(?:%[\w.-]+)?(?![\w:]|\.\d)/y;

export function detectIps(text: string, f: TextFeatures): Span[] {
  const out: Span[] = [];
  if (f.dotDigit && f.digitCluster >= 4) out.push(...detectIpv4(text));
  if (f.hexColon) out.push(...detectIpv6(text));
  return out;
}

function detectIpv4(text: string): Span[] {
  return collect(IPV4, text, 'ip', (m) => {
    if (isUnidentifyingV4(m[0])) return undefined;
    if (VERSION_LABEL.test(text.slice(Math.max(0, m.index - 12), m.index))) return undefined;
    return { start: m.index, end: m.index + m[0].length };
  });
}

function isUnidentifyingV4(addr: string): boolean {
  return addr.startsWith('127.') || addr.startsWith('255.') || addr === '0.0.0.0';
}

/**
 * Walks the colons rather than trying the pattern at every letter (a–f are common in prose): from each colon,
 * back up to the start of the hex-and-colon token around it and match from there, then move past the token, so
 * each character is looked at a bounded number of times.
 */
function detectIpv6(text: string): Span[] {
  const out: Span[] = [];
  let from = 0;
  for (let colon = text.indexOf(':', from); colon !== -1; colon = text.indexOf(':', from)) {
    let tokenEnd = colon + 1;
    while (tokenEnd < text.length && isHexOrColon(text.charCodeAt(tokenEnd))) tokenEnd++;
    from = tokenEnd;
    let start = colon;
    while (start > 0 && colon - start < 40 && isHexOrColon(text.charCodeAt(start - 1))) start--;
    // Glued to a word (`addr:fe80::1`, `std::vector`): the address, if any, starts after the first colon.
    if (start > 0 && /[\w.]/.test(text[start - 1]!)) start = text.indexOf(':', start) + 1;
    if (start >= tokenEnd) continue;
    IPV6.lastIndex = start;
    const m = IPV6.exec(text);
    if (!m) continue;
    const bare = m[0].split('%')[0]!;
    if (isIPv6(bare) && looksLikeAddress(bare)) {
      out.push({ start, end: start + m[0].length, kind: 'ip' });
      from = Math.max(from, start + m[0].length);
    }
  }
  return out;
}

function isHexOrColon(c: number): boolean {
  return (c >= 48 && c <= 58) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/**
 * `::`, `::1` and code such as `a::b` parse as IPv6 too. An address worth hiding has a digit and either three
 * written groups or one of at least three hex digits (`fe80::1`, `2001:db8::8a2e:370:7334`).
 */
function looksLikeAddress(addr: string): boolean {
  if (addr === '::' || addr === '::1' || !/\d/.test(addr)) return false;
  const groups = addr.split(':').filter((g) => g !== '');
  return groups.length >= 3 || groups.some((g) => g.length >= 3);
}
