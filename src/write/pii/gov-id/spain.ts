import type { TextFeatures } from '../features.js';
import { spanishIdValid } from '../checksums.js';
import { collect, type Span } from '../types.js';

/**
 * Spanish DNI (`12345678Z`, `12.345.678-Z`) and NIE (`X1234567L`, `Y-1234567-X`): the control letter must match
 * the number mod 23, which rules out nineteen of every twenty-three look-alikes that merely have the shape.
 */
const DNI = /(?<![\w.-])(?:\d{8}|\d{2}\.\d{3}\.\d{3})[ -]?[A-Z](?![\w])/g;
const NIE = /(?<![\w-])[XYZ][ -]?\d{7}[ -]?[A-Z](?![\w])/g;

export function detectSpanishIds(text: string, f: TextFeatures): Span[] {
  if (f.digitCluster < 7) return [];
  const accept = (m: RegExpExecArray) =>
    spanishIdValid(m[0].replace(/[ .-]/g, '')) ? { start: m.index, end: m.index + m[0].length } : undefined;
  return [...collect(DNI, text, 'gov_id', accept), ...collect(NIE, text, 'gov_id', accept)];
}
