/** Redaction: an event's content goes, its place in the timeline stays with a tombstone. */
import type { BigIntish } from '../codec.js';
import type { Dialect } from '../dialect.js';
import { allOf, sql } from '../fragment.js';
import { deleteDocs, exec, lockTenants, one, refreshFollowers, type Step, type TimelineSlot } from '../program.js';
import { dropUnreferencedEmbeddings } from './cleanup.js';
import { writeAudit } from './logs.js';

type RedactRow = TimelineSlot & { pk: BigIntish; content_hash: string | null; redacted: BigIntish | null };

/**
 * Deletes the event's content row and its doc (and, if now unreferenced, its vector; the engine's indexes drop
 * it), keeping the timeline row with a tombstone and an audit record. Idempotent: true again for an
 * already-redacted event (no second tombstone). False if the tenant has no such event.
 */
export function* redactEvent(d: Dialect, tenant: string, id: string, reason: string, at: number): Step<boolean> {
  yield* lockTenants([tenant]);
  const ev = yield* one<RedactRow>(
    sql(
      `SELECT e.pk, e.session_id, e.seq, c.content_hash, r.event_pk AS redacted FROM engram.events e
       LEFT JOIN engram.event_contents c ON c.event_pk = e.pk LEFT JOIN engram.event_redactions r ON r.event_pk = e.pk
       WHERE e.tenant = ? AND e.id = ?`,
      tenant,
      id,
    ),
  );
  if (!ev) return false;
  if (ev.redacted !== null) return true;
  const removed = yield* deleteDocs(tenant, allOf([sql("d.kind = 'event'"), ...d.inList('d.ref_id', [id])]));
  yield* exec(sql('DELETE FROM engram.event_contents WHERE tenant = ? AND event_pk = ?', tenant, ev.pk));
  yield* exec(sql('INSERT INTO engram.event_redactions (event_pk, tenant, redacted_at, reason) VALUES (?, ?, ?, ?)', ev.pk, tenant, at, reason));
  yield* refreshFollowers(tenant, [ev]);
  yield* dropUnreferencedEmbeddings(d, [...removed.contentHashes, ...(ev.content_hash ? [ev.content_hash] : [])]);
  yield* writeAudit({ tenant, at, action: 'redact', targetIds: [id], details: { reason } });
  return true;
}
