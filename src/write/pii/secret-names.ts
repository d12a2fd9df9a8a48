/**
 * Whether a field name (JSON key, env var, config key, header) names a credential. Shared by the text detector
 * (`password=…`) and `scrubJson` (`{"api_key": …}`), so both agree on what a secret field is.
 *
 * The decision is made on the *last* meaningful word, so `password` and `db_password` are secrets but
 * `password_policy`, `max_tokens`, `token_count` and `tokenizer` are not.
 */

const SECRET_WORDS = new Set([
  'password', 'passwd', 'pwd', 'pass', 'passphrase', 'passcode',
  'secret', 'token', 'apikey', 'authorization', 'auth', 'credential', 'credentials', 'cookie', 'bearer',
]);
/** Words that end a single compound word like `dbpassword`, `authtoken`, `clientsecret`, `xapikey`. */
const SECRET_SUFFIXES = ['password', 'passwd', 'token', 'secret', 'apikey', 'privatekey', 'secretkey', 'accesskey'];
/** `<qualifier> key` pairs that name a credential: `api_key`, `private-key`, `AWS_SECRET_ACCESS_KEY`. */
const KEY_QUALIFIERS = new Set(['api', 'private', 'secret', 'access', 'signing', 'encryption', 'master', 'client', 'ssh', 'app']);
/** Trailing words that describe the encoding of the credential rather than change what it is. */
const DECORATIONS = new Set(['value', 'val', 'str', 'string', 'b64', 'base64', 'hex', 'raw', 'plain', 'text', 'enc', 'encrypted', 'hash', 'hashed', 'digest', 'id']);

export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

// Field names repeat endlessly (every tool call has the same keys), so answers are remembered. Bounded: cleared
// whole when full, which is cheaper than tracking recency and just as good for a working set this small.
const MEMO = new Map<string, boolean>();
const MEMO_LIMIT = 2048;

export function isSecretKeyName(name: string): boolean {
  if (name.length > 100) return false;
  let answer = MEMO.get(name);
  if (answer === undefined) {
    if (MEMO.size >= MEMO_LIMIT) MEMO.clear();
    answer = decide(name);
    MEMO.set(name, answer);
  }
  return answer;
}

function decide(name: string): boolean {
  const words = splitWords(name);
  while (words.length > 1 && DECORATIONS.has(words[words.length - 1]!)) words.pop();
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (SECRET_WORDS.has(last)) return true;
  if (last === 'key') return KEY_QUALIFIERS.has(words[words.length - 2] ?? '');
  return SECRET_SUFFIXES.some((s) => last.length > s.length && last.endsWith(s));
}
