import { assertCleanText } from '../core/text.js';
import type { Json } from '../core/types.js';

/** Rejects invalid Unicode anywhere inside a JSON value (keys included). */
export function assertJsonClean(value: Json | undefined, path: string): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string') return assertCleanText(value, path);
  if (Array.isArray(value)) return value.forEach((v, i) => assertJsonClean(v, `${path}.${i}`));
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      assertCleanText(k, `${path}.${k}`);
      assertJsonClean(v, `${path}.${k}`);
    }
  }
}
