/** A time from a request (ISO-8601 or epoch milliseconds, as a number or a string of digits) as epoch ms. */
import { EngramError } from '../../../core/errors.js';

export function timeParam(v: string | number, path: string): number {
  const ms = typeof v === 'number' ? v : /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(ms) || ms < 0) {
    throw new EngramError('VALIDATION', `${path}: expected an ISO-8601 time or epoch milliseconds`, { issues: [{ path, message: 'expected an ISO-8601 time or epoch milliseconds' }] });
  }
  return ms;
}
