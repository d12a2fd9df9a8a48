/**
 * Scores one context against one checkpoint (bench/fixtures/conversations/README.md, "Judging"). It sees only
 * what getContext returned (each item's id, kind and text) and what the runner wrote (which user owns which
 * record id); it shares nothing with the engine's read path.
 */
import { containsAny, matchingAlternative } from '../lib/keywords.js';
import type { Checkpoint, ForbiddenReason } from './fixtures.js';

/** The part of a context item the judge reads. */
export interface JudgedItem {
  id: string;
  kind: string;
  text: string;
}

/** Words by which an item says a value is no longer current; such an item does not serve it as current. */
export const PAST_MARKERS = ['no longer', 'superseded', 'previously', 'formerly', 'until', 'used to', 'replaced by', 'changed to', 'outdated', 'expired', 'ended'] as const;

export interface ItemVerdict {
  /** The note or, without one, the first alternative. */
  label: string;
  ok: boolean;
  /** The context item that satisfied (must_contain) or violated (must_not_contain) it. */
  itemId: string | null;
}

export interface CheckpointVerdict {
  required: ItemVerdict[];
  forbidden: (ItemVerdict & { reason: ForbiddenReason })[];
  /** Items whose id is a record the runner wrote for another user: the hard invariant. */
  foreignItems: { id: string; owner: string }[];
}

const label = (x: { note?: string | undefined; any: readonly (readonly string[])[] }) => x.note ?? x.any[0]!.join(' + ');

export function judgeCheckpoint(cp: Checkpoint, items: readonly JudgedItem[], ownerOf: ReadonlyMap<string, string>): CheckpointVerdict {
  const required = cp.must_contain.map((req) => {
    const hit = items.find((it) => matchingAlternative(it.text, req.any) !== undefined);
    return { label: label(req), ok: hit !== undefined, itemId: hit?.id ?? null };
  });
  const forbidden = cp.must_not_contain.map((f) => {
    const markers = [...PAST_MARKERS, ...(f.unless ?? [])];
    const hit = items.find((it) => {
      if (matchingAlternative(it.text, f.any) === undefined) return false;
      if (f.reason !== 'stale') return true;
      return it.kind === 'fact' && !containsAny(it.text, markers);
    });
    return { reason: f.reason, label: label(f), ok: hit === undefined, itemId: hit?.id ?? null };
  });
  const foreignItems = items.flatMap((it) => {
    const owner = ownerOf.get(it.id);
    return owner !== undefined && owner !== cp.user_id ? [{ id: it.id, owner }] : [];
  });
  return { required, forbidden, foreignItems };
}
