/** Facts: the live version of every lineage (or every version), filtered by scope; one lineage in detail. */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { Fact, ScopeQuery } from '../api/types';
import { cleanScope, ScopeFields } from '../components/ScopeFields';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';
import { FactDetail } from './FactDetail';

export function Facts() {
  const api = useApi();
  const [draft, setDraft] = useState<ScopeQuery>({});
  const [scope, setScope] = useState<ScopeQuery>({});
  const [all, setAll] = useState(false);
  const [facts, setFacts] = useState<Fact[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [notice, setNotice] = useState('');

  const load = useCallback(() => {
    setError(null);
    api.listFacts({ ...cleanScope(scope), include_expired: all || undefined }).then(
      (r) => setFacts(r.facts.slice().reverse()),
      (e: unknown) => setError(e),
    );
  }, [api, scope, all]);

  useEffect(load, [load]);

  function apply(e: FormEvent) {
    e.preventDefault();
    setScope(draft);
  }

  return (
    <div className="split">
      <section aria-label="Fact list" className="pane">
        <form className="filters" onSubmit={apply} aria-label="Fact filters">
          <ScopeFields idPrefix="fa" value={draft} onChange={setDraft} />
          <div className="field checkbox">
            <input id="fa-all" type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
            <label htmlFor="fa-all">Include superseded versions</label>
          </div>
          <div className="field buttons">
            <button type="submit">Apply filters</button>
          </div>
        </form>
        <p role="status" className="count" data-testid="facts-count">
          {facts ? `${facts.length} facts` : 'loading…'}
          {notice ? ` · ${notice}` : ''}
        </p>
        <ErrorLine error={error} />
        {facts && facts.length > 0 && (
          <div className="table-wrap">
            <table className="facts">
              <caption className="sr-only">Facts, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Fact</th>
                  <th scope="col">Kind</th>
                  <th scope="col">v</th>
                  <th scope="col">Confidence</th>
                  <th scope="col">User</th>
                  <th scope="col">Recorded</th>
                </tr>
              </thead>
              <tbody>
                {facts.map((f) => (
                  <tr key={f.id} className={selectedKey === f.key ? 'selected' : undefined}>
                    <td>
                      <button type="button" className="link" aria-pressed={selectedKey === f.key} onClick={() => setSelectedKey(f.key)}>
                        {f.text}
                      </button>
                      {f.expired_at && <span className="badge muted">superseded</span>}
                    </td>
                    <td>{f.kind}</td>
                    <td>{f.version}</td>
                    <td>
                      <meter min={0} max={1} value={f.confidence} aria-label={`confidence ${f.confidence.toFixed(2)}`} /> {f.confidence.toFixed(2)}
                    </td>
                    <td>{f.user_id ?? '—'}</td>
                    <td>{fmtTime(f.recorded_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-label="Fact detail" className="pane detail">
        {selectedKey ? (
          <FactDetail
            factKey={selectedKey}
            onChanged={(message, gone) => {
              setNotice(message);
              if (gone) setSelectedKey(null);
              load();
            }}
          />
        ) : (
          <p className="hint">Select a fact to see its versions, validity and confidence over time.</p>
        )}
      </section>
    </div>
  );
}
