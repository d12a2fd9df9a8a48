/**
 * Lexical context on PostgreSQL (core/docs.ts): an event doc's tsvector, term frequencies and length also
 * cover the last words of the event before it in its session. Written with the doc; derived again for the
 * event that follows a redacted or deleted one, so removed words stay findable through no neighbour.
 */
import { lexicalContext, lexicalText } from '../../../core/docs.js';
import type { NewEvent } from '../../../ports/storage.js';
import type { Tx } from './db.js';
import { termFrequencies } from './doc-store.js';
import { docSearchText } from './fts.js';
import { num } from '../sql/rows.js';
import { sql } from './sql.js';

export const sessionKey = (tenant: string, session: string): string => `${tenant}\u0000${session}`;

/** The content of the event before `seq` in the session (redacted ones have none and are passed over). */
export const PREVIOUS_CONTENT = (tenant: string, session: string, seq: string) => `(SELECT c.content FROM engram.events p
  JOIN engram.event_contents c ON c.event_pk = p.pk
  WHERE p.tenant = ${tenant} AND p.session_id = ${session} AND p.seq < ${seq} ORDER BY p.seq DESC LIMIT 1)`;

/**
 * The lexical context of each event of a batch about to be inserted (in order, seqs ascending): the event
 * before it in the batch when in the same session, else the session's last stored event.
 */
export async function batchContexts(
  tx: Tx,
  events: readonly NewEvent[],
  seqs: readonly number[],
  /** The content before the batch of each of its sessions (`sessionKey`), when the caller read it already. */
  known?: ReadonlyMap<string, string | null>,
): Promise<(string | undefined)[]> {
  const key = (e: NewEvent) => sessionKey(e.tenant, e.sessionId!);
  const firsts = new Map<string, { tenant: string; session: string; seq: number }>();
  events.forEach((e, i) => {
    if (e.sessionId !== undefined && !firsts.has(key(e))) firsts.set(key(e), { tenant: e.tenant, session: e.sessionId, seq: seqs[i]! });
  });
  const stored = new Map<string, string | null>(known ?? []);
  if (firsts.size > 0 && !known) {
    const list = [...firsts.values()];
    const rows = await tx.rows<{ tenant: string; session_id: string; content: string | null }>(
      sql(
        `SELECT k.tenant, k.session_id, ${PREVIOUS_CONTENT('k.tenant', 'k.session_id', 'k.seq')} AS content
         FROM unnest(?::text[], ?::text[], ?::bigint[]) AS k(tenant, session_id, seq)`,
        list.map((f) => f.tenant),
        list.map((f) => f.session),
        list.map((f) => f.seq),
      ),
    );
    for (const r of rows) stored.set(sessionKey(r.tenant, r.session_id), r.content);
  }
  const last = new Map<string, string>();
  return events.map((e) => {
    if (e.sessionId === undefined) return undefined;
    const before = last.has(key(e)) ? last.get(key(e)) : stored.get(key(e));
    last.set(key(e), e.content);
    return lexicalContext(before) || undefined;
  });
}

/** Where a removed event sat in the timeline: its successor's lexical context may have come from it. */
export interface TimelineSlot {
  session_id: string | null;
  seq: string | number;
}

/**
 * After events were redacted or deleted (in this transaction): re-derives the tsvector, term frequencies
 * and length of the event doc that now follows each removed event in its session.
 */
export async function refreshFollowers(tx: Tx, tenant: string, removed: readonly TimelineSlot[]): Promise<void> {
  const slots = removed.filter((r) => r.session_id !== null);
  if (slots.length === 0) return;
  const followers = await tx.rows<{ doc_id: string | number; text: string; doc_len: number; content: string | null }>(
    sql(
      `SELECT DISTINCT ON (f.doc_id) f.doc_id, f.text, f.doc_len, ${PREVIOUS_CONTENT('?', 'f.session_id', 'f.seq')} AS content
       FROM unnest(?::text[], ?::bigint[]) AS r(session_id, seq)
       CROSS JOIN LATERAL (
         SELECT d.doc_id, d.text, d.doc_len, e.session_id, e.seq FROM engram.events e
         JOIN engram.docs d ON d.tenant = e.tenant AND d.kind = 'event' AND d.ref_id = e.id
         WHERE e.tenant = ? AND e.session_id = r.session_id AND e.seq > r.seq ORDER BY e.seq LIMIT 1
       ) AS f`,
      tenant,
      slots.map((r) => r.session_id),
      slots.map((r) => num(r.seq)),
      tenant,
    ),
  );
  for (const f of followers) {
    const search = docSearchText(lexicalText(f.text, lexicalContext(f.content)));
    await tx.exec(
      sql(
        `UPDATE engram.docs AS d SET tsv = v.tsv, doc_len = ?, tf = ${termFrequencies('v.tsv')}
         FROM (SELECT to_tsvector('engram.engram_text', ?) AS tsv) AS v
         WHERE d.tenant = ? AND d.doc_id = ?`,
        search.length,
        search.text,
        tenant,
        num(f.doc_id),
      ),
    );
    tx.docLengthChanged(tenant, num(f.doc_id), search.length - f.doc_len);
  }
}
