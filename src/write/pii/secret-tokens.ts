import type { TextFeatures } from './features.js';
import { collect, type Span } from './types.js';

/**
 * Credentials recognisable by their own shape: vendor prefixes, JWTs, PEM private keys. Each pattern is anchored on
 * a literal prefix and needs a long unbroken run, so most texts are ruled out by their features alone.
 */
const TOKEN_PATTERNS: readonly RegExp[] = [
  // OpenAI (sk-…, sk-proj-…, sk-svcacct-…) and Anthropic (sk-ant-api03-…).
  /(?<![\w-])sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  // AWS access key ids (long-term AKIA, temporary ASIA, and the other IAM unique-id prefixes).
  /(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  // GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens; fine-grained PATs.
  /(?<![\w])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![\w])/g,
  // GitLab, npm, Hugging Face, SendGrid.
  /(?<![\w])(?:glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,}|SG\.[\w-]{16,}\.[\w-]{16,})(?![\w])/g,
  // Slack tokens and incoming-webhook URLs.
  /(?<![\w])xox[abprse]-[A-Za-z0-9-]{10,}/g,
  /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/g,
  // Google API keys.
  /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g,
  // Stripe secret, restricted and webhook-signing keys (publishable pk_ keys are public by design).
  /(?<![\w])(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,}|(?<![\w])whsec_[0-9A-Za-z]{20,}/g,
  // JSON Web Tokens: base64url header `{"…` , payload and signature.
  /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  // PEM private keys (RSA, EC, OPENSSH, ENCRYPTED, PKCS#8), to the END line or, if cut off, the end of the text.
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----|$)/g,
];

export const PREFIX_GATE = /sk-|AKIA|ASIA|A[GIRNBC][A-Z]A|gh[pousr]_|github_pat_|glpat-|npm_|hf_|SG\.|xox|hooks\.slack|AIza|[sr]k_(?:live|test)_|whsec_|eyJ|-----BEGIN/;

// The shortest pattern above (`xoxb-` and ten characters) is a fifteen-character run; prose words are shorter.
const MIN_TOKEN_RUN = 15;

export function detectKnownTokens(text: string, f: TextFeatures): Span[] {
  if (f.tokenRun < MIN_TOKEN_RUN && !text.includes('-----BEGIN') && !text.includes('hooks.slack.com')) return [];
  if (!PREFIX_GATE.test(text)) return [];
  return TOKEN_PATTERNS.flatMap((re) =>
    collect(re, text, 'secret', (m) => ({ start: m.index, end: m.index + m[0].length })),
  );
}
