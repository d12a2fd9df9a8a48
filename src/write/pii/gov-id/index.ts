import type { TextFeatures } from '../features.js';
import type { Span } from '../types.js';
import { detectAadhaar } from './aadhaar.js';
import { detectCodiceFiscale } from './codice-fiscale.js';
import { detectCpfs } from './cpf.js';
import { detectLabelledNationalIds } from './labelled.js';
import { detectNinos } from './nino.js';
import { detectSsns } from './ssn.js';
import { detectSpanishIds } from './spain.js';

const DETECTORS = [detectSsns, detectNinos, detectSpanishIds, detectAadhaar, detectCpfs, detectCodiceFiscale, detectLabelledNationalIds];

/** Government-issued personal identifiers, each validated by its issuing rules or check digits. */
export function detectGovIds(text: string, f: TextFeatures): Span[] {
  if (f.digitCluster < 6 && !f.upperDigit) return [];
  return DETECTORS.flatMap((detect) => detect(text, f));
}
