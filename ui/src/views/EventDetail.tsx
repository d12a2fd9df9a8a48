/** One event with its provenance, and the destructive actions the API offers for it (each confirmed first). */
import { useEffect, useState } from 'react';
import type { MemoryEvent } from '../api/types';
import { ConfirmButton } from '../components/Confirm';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';

export function EventDetail({ id, onChanged }: { id: string; onChanged: (message: string) => void }) {
  const api = useApi();
  const [event, setEvent] = useState<MemoryEvent | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    setEvent(null);
    setError(null);
    api.getEvent(id).then(
      (e) => live && setEvent(e),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [api, id]);

  if (error) return <ErrorLine error={error} />;
  if (!event) return <p className="hint">Loading {id}…</p>;

  const rows: [string, string | undefined][] = [
    ['id', event.id],
    ['seq', String(event.seq)],
    ['time', fmtTime(event.ts)],
    ['recorded', fmtTime(event.recorded_at)],
    ['type', event.type],
    ['actor', event.actor],
    ['user', event.user_id],
    ['agent', event.agent_id],
    ['session', event.session_id],
    ['task', event.task_id],
    ['state', event.state_label],
    ['tool', event.tool],
    ['source', event.source],
    ['tags', event.tags.join(', ') || undefined],
    ['importance', event.importance.toFixed(2)],
    ['content hash', event.content_hash],
    ['PII scrubbed', event.pii.scrubbed ? Object.entries(event.pii.counts).map(([k, n]) => `${k}×${n}`).join(', ') || 'yes' : 'no'],
    ['expires', event.expires_at ? fmtTime(event.expires_at) : undefined],
  ];

  return (
    <article aria-labelledby="event-title">
      <h2 id="event-title">Event</h2>
      <blockquote className="content" data-testid="event-content">
        {event.content}
      </blockquote>
      <h3>Provenance</h3>
      <dl className="kv">
        {rows
          .filter(([, v]) => v !== undefined && v !== '')
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
      {Object.keys(event.metadata).length > 0 && (
        <>
          <h3>Metadata</h3>
          <pre className="json">{JSON.stringify(event.metadata, null, 2)}</pre>
        </>
      )}
      {event.args !== undefined && (
        <>
          <h3>Arguments</h3>
          <pre className="json">{JSON.stringify(event.args, null, 2)}</pre>
        </>
      )}
      {event.result !== undefined && (
        <>
          <h3>Result</h3>
          <pre className="json">{JSON.stringify(event.result, null, 2)}</pre>
        </>
      )}
      <div className="actions">
        <ConfirmButton
          confirm={{
            title: 'Redact this event?',
            message: 'Its content is removed for good; a tombstone and an audit record stay.',
            confirmLabel: 'Redact',
            reasonLabel: 'Reason (kept in the audit log)',
            onConfirm: async (reason) => {
              await api.redactEvent(event.id, reason);
              onChanged(`redacted ${event.id}`);
            },
          }}
        >
          Redact…
        </ConfirmButton>
        <ConfirmButton
          confirm={{
            title: 'Forget this event?',
            message: 'The event, its index entries and embedding are deleted for good; an audit record stays.',
            confirmLabel: 'Forget event',
            onConfirm: async () => {
              const r = await api.forget({ ids: [event.id] });
              onChanged(`forgot ${r.events} event(s)`);
            },
          }}
        >
          Forget event…
        </ConfirmButton>
        {event.user_id && (
          <ConfirmButton
            confirm={{
              title: `Forget user ${event.user_id}?`,
              message: `Everything in user ${event.user_id}'s scope (events, facts, episodes …) is deleted for good.`,
              confirmLabel: 'Forget user',
              onConfirm: async () => {
                const r = await api.forget({ scope: { user_id: event.user_id } });
                onChanged(`forgot user ${event.user_id}: ${r.events} events, ${r.facts} facts`);
              },
            }}
          >
            Forget user {event.user_id}…
          </ConfirmButton>
        )}
      </div>
    </article>
  );
}
