/**
 * Layered reads (docs/scopes.md): which records a caller's identity sees and which layer each is in. Storage
 * engines compile the same rule to SQL (adapters/storage/sql/fragment.ts) and to their in-process indexes.
 */
import type { Layers } from '../ports/storage.js';

/** The layer a visible record belongs to, from the reader's identity (docs/scopes.md). */
export type Layer = 'session' | 'user' | 'agent' | 'shared';

type Scoped = { userId?: string | null | undefined; agentId?: string | null | undefined; sessionId?: string | null | undefined };
const val = (v: string | null | undefined): string | undefined => (v === null || v === undefined ? undefined : v);

/** Whether a record with these scope fields is visible to `layers` (the rule above, evaluated in process). */
export function visibleTo(rec: Scoped, layers: Layers): boolean {
  const [u, a, s] = [val(layers.userId), val(layers.agentId), val(layers.sessionId)];
  const [ru, ra, rs] = [val(rec.userId), val(rec.agentId), val(rec.sessionId)];
  if (u === undefined && a === undefined && s === undefined) return ru === undefined;
  if (ru !== undefined) return ru === u;
  if (rs !== undefined) return rs === s;
  return ra === undefined || ra === a;
}

/** Which layer a visible record is in for this reader: its session, its user, its agent, or shared. */
export function layerOf(rec: Scoped, layers: Layers | undefined): Layer {
  if (val(rec.sessionId) !== undefined && rec.sessionId === layers?.sessionId) return 'session';
  if (val(rec.userId) !== undefined) return 'user';
  if (val(rec.agentId) !== undefined) return 'agent';
  return 'shared';
}
