import type { TextFeatures } from './features.js';
import { collect, type Span } from './types.js';

/**
 * `local@domain.tld`. The TLD must be alphabetic, so npm-style `pkg@1.2.3` is not an address; the local part
 * cannot start or end with a dot. `git@host` (SSH remotes) is a service account, not a person, and asset names
 * such as `logo@2x.png` are files; both are left alone.
 */
const EMAIL =
  /(?<![\w.%+-])[A-Za-z0-9_%+-](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-]|\.[A-Za-z0-9])/g;

const SERVICE_ACCOUNTS = new Set(['git']);
// `logo@2x.png`, `chunk@1.2.js`: asset names, whose "TLD" is a file extension that no mail domain ends in.
const FILE_EXTENSIONS = /\.(?:png|jpe?g|gif|svg|webp|avif|ico|css|js|mjs|cjs|jsx|tsx|json|map|lock|ya?ml|txt)$/i;

export function detectEmails(text: string, f: TextFeatures): Span[] {
  if (!f.at) return [];
  return collect(EMAIL, text, 'email', (m) => {
    const local = m[0].slice(0, m[0].indexOf('@'));
    if (SERVICE_ACCOUNTS.has(local.toLowerCase()) || FILE_EXTENSIONS.test(m[0])) return undefined;
    return { start: m.index, end: m.index + m[0].length };
  });
}
