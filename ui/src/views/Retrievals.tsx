/**
 * The retrieval log: past getContext calls, newest first, with the outcomes recorded against them. The
 * selected one shows why each item was recalled (its section and score breakdown) and whether it helped (the
 * outcomes and corrections), and clicks through to the playground's look-up and to the timeline.
 */
import { useCallback, useState, type FormEvent } from 'react';
import type { RetrievalSummary } from '../api/learn-types';
import { ConfigDetails, ItemLink } from '../components/ItemLink';
import { RecordOutcome } from '../components/RetrievalPanel';
import { ScoreBars, WeakMatchBadge } from '../components/ScoreBars';
import { ErrorLine, fmtTime } from '../components/Status';
import { usePages } from '../components/usePages';
import { useApi } from '../components/useApi';
import { OutcomeBadge } from './Episodes';
import { isoOf } from './timeline-data';

interface Range {
  since?: string;
  until?: string;
}

const PAGE = 50;

/** The verdict of a retrieval: its last outcome, or none yet. */
function verdict(r: RetrievalSummary): string | undefined {
  return r.outcomes.filter((o) => o.type === 'outcome').at(-1)?.outcome;
}

export function Retrievals() {
  const api = useApi();
  const [draft, setDraft] = useState<Range>({});
  const [range, setRange] = useState<Range>({});
  const fetchPage = useCallback(
    (cursor: string | undefined) =>
      api
        .listRetrievals({ limit: PAGE, ...(cursor ? { cursor } : {}), since: isoOf(range.since), until: isoOf(range.until) })
        .then((p) => ({ rows: p.retrievals, next: p.next_cursor })),
    [api, range],
  );
  const { rows, error, busy, more, reload } = usePages(fetchPage);
  const [selected, setSelected] = useState<string | null>(null);
  const current = rows?.find((r) => r.id === selected);

  return (
    <div className="split">
      <section aria-label="Retrieval list" className="pane">
        <form
          className="filters"
          aria-label="Retrieval filters"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            setRange({ ...draft });
          }}
        >
          <div className="field">
            <label htmlFor="rl-since">From</label>
            <input id="rl-since" type="datetime-local" value={draft.since ?? ''} onChange={(e) => setDraft({ ...draft, since: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="rl-until">Until</label>
            <input id="rl-until" type="datetime-local" value={draft.until ?? ''} onChange={(e) => setDraft({ ...draft, until: e.target.value })} />
          </div>
          <div className="field buttons">
            <button type="submit">Apply filters</button>
          </div>
        </form>
        <p role="status" className="count" data-testid="retrievals-count">
          {rows ? `${rows.length} retrievals, newest first${more ? ' (more below)' : ''}` : 'loading…'}
        </p>
        <ErrorLine error={error} />
        <ul className="cards" aria-label="Retrievals">
          {rows?.map((r) => {
            const v = verdict(r);
            return (
              <li key={r.id} className={selected === r.id ? 'selected' : undefined}>
                <button type="button" className="card" aria-pressed={selected === r.id} onClick={() => setSelected(r.id)}>
                  <span className="chead">
                    {v ? <OutcomeBadge outcome={v} /> : <span className="badge muted">no outcome</span>} <span className="hint">{fmtTime(r.created_at)}</span>
                  </span>
                  <span className="summary">{r.query || <em>(no query)</em>}</span>
                  <span className="hint">
                    {r.item_ids.length} items{r.outcomes.some((o) => o.type === 'correction') ? ' · corrected' : ''}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
        {more && (
          <button type="button" className="secondary more" disabled={busy} onClick={more}>
            Load more
          </button>
        )}
      </section>
      <section aria-label="Retrieval detail" className="pane detail">
        {current ? <RetrievalDetail key={current.id} r={current} onRecorded={reload} /> : <p className="hint">Select a retrieval to see why each item was recalled and whether it helped.</p>}
      </section>
    </div>
  );
}

function RetrievalDetail({ r, onRecorded }: { r: RetrievalSummary; onRecorded: () => void }) {
  const items = r.items ?? r.item_ids.map((id) => ({ id, kind: '', section: '', scores: undefined }));
  return (
    <div data-testid="retrieval-detail">
      <h2>“{r.query}”</h2>
      <p className="hint">
        <code>{r.id}</code> · {fmtTime(r.created_at)} · <a href={`#/playground?retrieval=${r.id}`}>open in the playground look-up</a>
      </p>
      {r.outcomes.length === 0 ? (
        <>
          <RecordOutcome retrievalId={r.id} onRecorded={onRecorded} />
          <p className="hint">No outcome recorded against this retrieval yet.</p>
        </>
      ) : (
        <>
          <h3>Did it help?</h3>
          <ul aria-label="Outcomes">
            {r.outcomes.map((o) => (
              <li key={o.event_id}>
                {o.type === 'outcome' ? <OutcomeBadge outcome={o.outcome ?? 'UNKNOWN'} /> : <span className="badge type-correction">correction</span>} {o.text}{' '}
                <span className="hint">
                  {fmtTime(o.at)} · <ItemLink id={o.event_id} />
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Why these items</h3>
      {!r.items && <p className="hint">Recorded before score breakdowns were kept: ids only.</p>}
      <ol className="items" aria-label="Items handed out">
        {items.map((it) => (
          <li key={it.id} data-testid="rl-item">
            <div className="ihead">
              {it.section && <span className="badge">{it.section}</span>} {it.kind && <span className="badge muted">{it.kind}</span>} <ItemLink id={it.id} />
              {it.scores && <WeakMatchBadge scores={it.scores} />}
              {it.scores && <span className="score">final {it.scores.final.toFixed(3)}</span>}
            </div>
            {it.scores && <ScoreBars scores={it.scores} />}
          </li>
        ))}
      </ol>
      <ConfigDetails config={r.config} />
    </div>
  );
}
