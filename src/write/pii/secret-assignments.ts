import type { TextFeatures } from './features.js';
import { isSecretKeyName } from './secret-names.js';
import { collect, groupSpan, PLACEHOLDER_RE, type Span } from './types.js';

/**
 * Credentials identified by what names them rather than by their shape: `password=…`, `"api_key": "…"`,
 * `Authorization: Bearer …`, `--token …`, `https://user:pass@host`. Only the value is replaced; the name stays,
 * so the memory still says *that* a password was given.
 */

// Scanning is driven by the separators (`=`, `:`), which are few, rather than by trying a name pattern at every
// word: from each separator we look back for the name and forward for the value.
const SEPARATOR = /=>|[:=]/g;
const NAME_HINT = /pass|pwd|secret|key|token|auth|credential|cookie|bearer/i;
// Just after a separator: optional spaces, an optional auth scheme, then a quoted or a bare value. A bare value ends
// at whitespace, quotes, brackets, `,` `;` and at a `&` that starts the next `name=` of a query string.
const VALUE_AFTER =
  /(\s{0,3})(?:(?:Bearer|Basic|Token|Digest|Bot|Negotiate)\s+)?(?:\\?(["'`])([^"'`\r\n]{1,512}?)\\?\2|((?:[^\s"'`,;&<>()[\]{}]|&(?![\w.-]+=)){1,512}))/dy;

// `--password hunter2`; single-letter flags such as `-p` are too ambiguous to include.
const CLI_FLAG = /(?<![\w-])--([a-z][\w-]{1,40})[ ]+([^\s"'`-][^\s"'`]{0,511})/dg;
// A bearer token with no header name in front of it.
const BEARER = /\bBearer\s+([A-Za-z0-9._~+/-]{16,}=*)/dg;
// Password in a URL's userinfo.
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{1,64}:([^\s/@]{1,128})@/dgi;

export function detectSecretAssignments(text: string, f: TextFeatures): Span[] {
  const out: Span[] = [];
  if (f.assignment) out.push(...detectNamedValues(text));
  if (text.includes('--')) {
    out.push(...collect(CLI_FLAG, text, 'secret', (m) => (isSecretKeyName(m[1] ?? '') && isValue(m[2] ?? '') ? groupSpan(m, 2) : undefined)));
  }
  if (text.includes('Bearer')) out.push(...collect(BEARER, text, 'secret', (m) => groupSpan(m, 1)));
  if (text.includes('://')) {
    out.push(...collect(URL_PASSWORD, text, 'secret', (m) => (isValue(m[1] ?? '') ? groupSpan(m, 1) : undefined)));
  }
  return out;
}

function detectNamedValues(text: string): Span[] {
  const out: Span[] = [];
  SEPARATOR.lastIndex = 0;
  for (let sep = SEPARATOR.exec(text); sep !== null; sep = SEPARATOR.exec(text)) {
    const at = sep.index;
    const after = at + sep[0].length;
    // `==`, `!=`, `<=`, `>=` compare; they do not assign.
    if (sep[0] === '=' && (/[=!<>]/.test(text[at - 1] ?? '') || text[after] === '=')) continue;
    const name = nameBefore(text, at);
    if (name === undefined || !NAME_HINT.test(name) || !isSecretKeyName(name)) continue;
    VALUE_AFTER.lastIndex = after;
    const m = VALUE_AFTER.exec(text);
    const span = m ? valueSpan(m, sep[0]) : undefined;
    if (span) {
      out.push({ ...span, kind: 'secret' });
      SEPARATOR.lastIndex = span.end;
    }
  }
  return out;
}

const MAX_NAME = 80;

/**
 * The field name that ends just before `at`: skips up to three spaces, a closing quote (possibly escaped), then
 * takes the run of name characters (`\w . -`) and drops any leading characters a name cannot start with.
 */
function nameBefore(text: string, at: number): string | undefined {
  let j = at;
  for (let spaces = 0; spaces < 3 && j > 0 && isSpace(text.charCodeAt(j - 1)); spaces++) j--;
  if (j > 0 && (text[j - 1] === '"' || text[j - 1] === "'")) j--;
  if (j > 0 && text[j - 1] === '\\') j--;
  const end = j;
  while (j > 0 && end - j < MAX_NAME && isNameChar(text.charCodeAt(j - 1))) j--;
  if (j > 0 && isNameChar(text.charCodeAt(j - 1))) return undefined;
  while (j < end && !isNameStart(text.charCodeAt(j))) j++;
  return j < end ? text.slice(j, end) : undefined;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;
}

function valueSpan(m: RegExpExecArray, separator: string): { start: number; end: number } | undefined {
  const quoted = m[3];
  if (quoted !== undefined) return isValue(quoted) ? groupSpan(m, 3) : undefined;
  const span = groupSpan(m, 4);
  if (span === undefined) return undefined;
  // A sentence's full stop is not part of the password.
  const raw = (m[4] ?? '').replace(/[.!?]+$/, '');
  if (!isValue(raw)) return undefined;
  // `Password: required` and `password= and` are prose: after a colon or a spaced `=`, a bare value must look
  // machine-made to count. `password=hunter` (tight `=`) is how configs and URLs write it, so it counts as is.
  const prose = separator !== '=' || (m[1] ?? '') !== '';
  if (prose && !looksMachineMade(raw)) return undefined;
  return { start: span.start, end: span.start + raw.length };
}

/** Empty values, our own placeholders and obvious stand-ins (`$VAR`, `<token>`, `***`, `xxx`) hide nothing. */
function isValue(v: string): boolean {
  // A value without a letter or digit (":" in `https://host::@…`, "---") holds nothing to keep secret.
  if (!/[\p{L}\p{N}]/u.test(v) || PLACEHOLDER_RE.test(v)) return false;
  if (/^[$<{%]/.test(v) || /^(?:\*+|x+|X+|\.+|null|none|undefined|true|false)$/i.test(v)) return false;
  return true;
}

function looksMachineMade(v: string): boolean {
  return /\d/.test(v) || /[^A-Za-z]/.test(v) || (/[a-z]/.test(v) && /[A-Z]/.test(v.slice(1)));
}
