/**
 * Episodes: segments of the timeline with their outcome, decisions, assumptions, corrections and root cause;
 * the selected one's typed links as a causal graph, its causal narrative, and its events (click through to
 * the timeline).
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { OUTCOMES, type Episode, type WireScopeQuery } from '../api/learn-types';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';
import { EpisodeDetail } from './EpisodeDetail';

export function OutcomeBadge({ outcome }: { outcome: string }) {
  return <span className={`badge outcome-${outcome.toLowerCase()}`}>{outcome}</span>;
}

export function Episodes() {
  const api = useApi();
  const [draft, setDraft] = useState<WireScopeQuery & { outcome?: string }>({});
  const [query, setQuery] = useState<WireScopeQuery & { outcome?: string }>({});
  const [episodes, setEpisodes] = useState<Episode[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<string | null>(null);

  const load = useCallback(() => {
    setError(null);
    const q = Object.fromEntries(Object.entries(query).filter(([, v]) => v));
    api.listEpisodes({ ...q, limit: 500 }).then(
      (r) => setEpisodes(r.episodes),
      (e: unknown) => setError(e),
    );
  }, [api, query]);
  useEffect(load, [load]);

  function apply(e: FormEvent) {
    e.preventDefault();
    setQuery({ ...draft });
  }

  return (
    <div className="split">
      <section aria-label="Episode list" className="pane">
        <form className="filters" onSubmit={apply} aria-label="Episode filters">
          <div className="field">
            <label htmlFor="ep-user">User</label>
            <input id="ep-user" value={draft.user_id ?? ''} onChange={(e) => setDraft({ ...draft, user_id: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="ep-session">Session</label>
            <input id="ep-session" value={draft.session_id ?? ''} onChange={(e) => setDraft({ ...draft, session_id: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="ep-task">Task</label>
            <input id="ep-task" value={draft.task_id ?? ''} onChange={(e) => setDraft({ ...draft, task_id: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="ep-outcome">Outcome</label>
            <select id="ep-outcome" value={draft.outcome ?? ''} onChange={(e) => setDraft({ ...draft, outcome: e.target.value })}>
              <option value="">any</option>
              {OUTCOMES.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          </div>
          <div className="field buttons">
            <button type="submit">Apply filters</button>
          </div>
        </form>
        <p role="status" className="count" data-testid="episodes-count">
          {episodes ? `${episodes.length} episodes, newest first` : 'loading…'}
        </p>
        <ErrorLine error={error} />
        <ul className="cards" aria-label="Episodes">
          {episodes?.map((ep) => (
            <li key={ep.id} className={selected === ep.id ? 'selected' : undefined}>
              <button type="button" className="card" aria-pressed={selected === ep.id} onClick={() => setSelected(ep.id)}>
                <span className="chead">
                  <OutcomeBadge outcome={ep.outcome} /> {ep.closed ? '' : <span className="badge muted">open</span>} <span className="hint">{fmtTime(ep.end_ts)}</span>
                  <span className="hint">{ep.user_id ?? ''} {ep.session_id ? `· ${ep.session_id}` : ''}</span>
                </span>
                <span className="summary">{ep.summary}</span>
                <span className="hint">
                  {ep.event_ids.length} events · {ep.decisions.length} decisions · {ep.corrections.length} corrections
                </span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Episode detail" className="pane detail">
        {selected ? <EpisodeDetail id={selected} onSelect={setSelected} /> : <p className="hint">Select an episode to see its decisions, links and causal graph.</p>}
      </section>
    </div>
  );
}
