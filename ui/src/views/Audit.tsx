/**
 * The audit log: every redaction (with its reason), forget (with its counts), sweep, PII scrub and import,
 * newest first, paged. It names ids and actions, never content; an event id opens the event (a redacted one
 * shows its tombstone; a forgotten one is gone).
 */
import { useCallback } from 'react';
import type { AuditRecord } from '../api/learn-types';
import { ItemLink } from '../components/ItemLink';
import { ErrorLine, fmtTime } from '../components/Status';
import { usePages } from '../components/usePages';
import { useApi } from '../components/useApi';

const PAGE = 100;
const SHOWN_TARGETS = 5;

function Details({ details }: { details: AuditRecord['details'] }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return <span className="hint">—</span>;
  return (
    <dl className="kv">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Audit() {
  const api = useApi();
  const fetchPage = useCallback(
    (cursor: string | undefined) => api.listAudit({ limit: PAGE, ...(cursor ? { cursor } : {}) }).then((p) => ({ rows: p.audit, next: p.next_cursor })),
    [api],
  );
  const { rows, error, busy, more, reload } = usePages(fetchPage);

  return (
    <div>
      <div className="actions">
        <button type="button" className="secondary" onClick={reload} disabled={busy}>
          Refresh
        </button>
      </div>
      <p role="status" className="count" data-testid="audit-count">
        {rows ? `${rows.length} audit records, newest first${more ? ' (more below)' : ''}` : 'loading…'}
      </p>
      <ErrorLine error={error} />
      <div className="table-wrap">
        <table className="facts" aria-label="Audit log">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Action</th>
              <th scope="col">Targets</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {rows?.map((a) => (
              <tr key={a.id} data-testid="audit-row">
                <td>
                  {fmtTime(a.at)}
                  <br />
                  <code className="hint">{a.id}</code>
                </td>
                <td>
                  <span className={`badge action-${a.action}`}>{a.action}</span>
                </td>
                <td>
                  {a.target_ids.length === 0 && <span className="hint">—</span>}
                  {a.target_ids.slice(0, SHOWN_TARGETS).map((id) => (
                    <div key={id}>
                      <ItemLink id={id} />
                    </div>
                  ))}
                  {a.target_ids.length > SHOWN_TARGETS && <span className="hint">and {a.target_ids.length - SHOWN_TARGETS} more</span>}
                </td>
                <td>
                  <Details details={a.details} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more && (
        <button type="button" className="secondary more" disabled={busy} onClick={more}>
          Load more
        </button>
      )}
    </div>
  );
}
