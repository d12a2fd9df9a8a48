import type { CountryCode } from 'libphonenumber-js/max';
import type { PiiKind } from '../../core/types.js';
import { detectCards } from './card.js';
import { detectEmails } from './email.js';
import { detectGovIds } from './gov-id/index.js';
import { detectIbans } from './iban.js';
import { detectIps } from './ip.js';
import { phoneDetector } from './phone.js';
import { detectSecrets } from './secret.js';
import type { Detect } from './types.js';

export interface DetectorOptions {
  defaultCountry: CountryCode;
}

/** One entry per kind, so the compiler insists every PII kind has a detector. */
const FACTORIES: Readonly<Record<PiiKind, (opts: DetectorOptions) => Detect>> = {
  email: () => detectEmails,
  phone: (opts) => phoneDetector(opts.defaultCountry),
  card: () => detectCards,
  iban: () => detectIbans,
  gov_id: () => detectGovIds,
  ip: () => detectIps,
  secret: () => detectSecrets,
};

/** The detectors for `kinds`, in a fixed order, each kind once. */
export function detectorsFor(kinds: readonly PiiKind[], opts: DetectorOptions): Detect[] {
  const wanted = new Set(kinds);
  return (Object.keys(FACTORIES) as PiiKind[]).filter((k) => wanted.has(k)).map((k) => FACTORIES[k](opts));
}
