/**
 * The other half of "why was this recalled, and did it help?": record how the answer built from a retrieval
 * turned out (POST /v1/outcomes: closes its episode, reinforces or contradicts the facts it handed out), and
 * look any retrieval up by id (GET /v1/retrievals/{id}: its query, what it handed out, the config it ran with).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { OUTCOMES, type OutcomeReport, type Retrieval } from '../api/learn-types';
import { OutcomeBadge } from '../views/Episodes';
import { ConfigDetails, ItemLink } from './ItemLink';
import { WeakMatchBadge } from './ScoreBars';
import { ErrorLine, fmtTime } from './Status';
import { useApi } from './useApi';

export function RecordOutcome({ retrievalId, onRecorded }: { retrievalId: string; onRecorded?: () => void }) {
  const api = useApi();
  const [outcome, setOutcome] = useState('SUCCESS');
  const [correction, setCorrection] = useState('');
  const [report, setReport] = useState<OutcomeReport | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      setReport(await api.recordOutcome({ retrieval_id: retrievalId, outcome, ...(correction.trim() ? { correction: correction.trim() } : {}) }));
      onRecorded?.();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <section aria-labelledby="outcome-title" className="outcome">
      <h2 id="outcome-title">Did it help?</h2>
      <form className="filters" onSubmit={(e) => void submit(e)} aria-label="Record an outcome">
        <div className="field">
          <label htmlFor="oc-outcome">Outcome</label>
          <select id="oc-outcome" value={outcome} onChange={(e) => setOutcome(e.target.value)}>
            {OUTCOMES.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </div>
        <div className="field wide">
          <label htmlFor="oc-correction">Correction (what was wrong, optional)</label>
          <input id="oc-correction" value={correction} onChange={(e) => setCorrection(e.target.value)} />
        </div>
        <div className="field buttons">
          <button type="submit" disabled={report !== null}>
            Record outcome
          </button>
        </div>
      </form>
      <ErrorLine error={error} />
      {report && (
        <div data-testid="outcome-report">
          <p role="status">
            <OutcomeBadge outcome={report.outcome} /> recorded on episode <code>{report.episode_id}</code> · {report.links.length} links ·{' '}
            {report.facts.length} facts updated
          </p>
          {report.facts.length > 0 && (
            <ul>
              {report.facts.map((f) => (
                <li key={f.fact_id}>
                  <code>{f.key}</code> {f.polarity === 'support' ? 'supported' : 'contradicted'}: confidence {f.confidence_before.toFixed(2)} → {f.confidence.toFixed(2)}
                  {f.revised_from ? ' (new version)' : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

export function LookUpRetrieval({ initial }: { initial?: string }) {
  const api = useApi();
  const [id, setId] = useState(initial ?? '');
  const [found, setFound] = useState<Retrieval | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function lookUp(which: string) {
    setError(null);
    setFound(null);
    try {
      setFound(await api.getRetrieval(which.trim()));
    } catch (err) {
      setError(err);
    }
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    void lookUp(id);
  }
  // Opened from a link (the retrieval log): look it up at once.
  useEffect(() => {
    if (initial) void lookUp(initial);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initial]);

  return (
    <section aria-labelledby="lookup-title">
      <h2 id="lookup-title">Look up a retrieval</h2>
      <form className="filters" onSubmit={submit} aria-label="Look up a retrieval">
        <div className="field wide">
          <label htmlFor="rt-id">Retrieval id</label>
          <input id="rt-id" required value={id} onChange={(e) => setId(e.target.value)} placeholder="ret_…" />
        </div>
        <div className="field buttons">
          <button type="submit">Look up</button>
        </div>
      </form>
      <ErrorLine error={error} />
      {found && (
        <div data-testid="retrieval">
          <p>
            “{found.query}” · {fmtTime(found.created_at)} · handed out {found.item_ids.length} items
          </p>
          <ol className="events">
            {found.item_ids.map((i, n) => {
              const item = found.items?.[n];
              return (
                <li key={i}>
                  <ItemLink id={i} />
                  {item && (
                    <span className="hint">
                      {' '}
                      · {item.section} · final {item.scores.final.toFixed(3)}
                    </span>
                  )}
                  {item && (
                    <>
                      {' '}
                      <WeakMatchBadge scores={item.scores} />
                    </>
                  )}
                </li>
              );
            })}
          </ol>
          <ConfigDetails config={found.config} />
        </div>
      )}
    </section>
  );
}
