import { createHash } from 'node:crypto';
import { EngramError } from './errors.js';

/** Collapses whitespace and Unicode forms so that trivially different copies hash the same. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

/** Content hash used for dedupe and the embedding cache: sha256 over the normalised text, hex, 32 chars. */
export function contentHash(...parts: (string | undefined)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(normalizeText(p ?? '')).update('\u0000');
  return h.digest('hex').slice(0, 32);
}

/** Rejects strings carrying lone surrogates (what invalid UTF-8 decodes to) or NUL bytes. */
export function assertCleanText(text: string, path: string): void {
  if (!text.isWellFormed()) {
    throw new EngramError('VALIDATION', `${path} is not valid Unicode (lone surrogate or invalid UTF-8)`, {
      issues: [{ path, message: 'invalid UTF-8 / lone surrogate' }],
    });
  }
  if (text.includes('\u0000')) {
    throw new EngramError('VALIDATION', `${path} contains a NUL character`, { issues: [{ path, message: 'NUL character' }] });
  }
}
