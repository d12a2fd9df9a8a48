/** Working memory: one session's bounded scratchpad — plan, items by priority, key facts, turns, its prompt text. */
import { useState, type FormEvent } from 'react';
import type { WorkingMemory as Wm } from '../api/learn-types';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';

export function WorkingMemory() {
  const api = useApi();
  const [session, setSession] = useState('');
  const [user, setUser] = useState('');
  const [wm, setWm] = useState<Wm | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function load(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      setWm(await api.workingMemory(session.trim(), user.trim() ? { user_id: user.trim() } : {}));
    } catch (err) {
      setError(err);
    }
  }

  return (
    <section aria-label="Working memory">
      <form className="filters" onSubmit={(e) => void load(e)} aria-label="Choose a session">
        <div className="field">
          <label htmlFor="wm-session">Session</label>
          <input id="wm-session" required value={session} onChange={(e) => setSession(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="wm-user">User</label>
          <input id="wm-user" value={user} onChange={(e) => setUser(e.target.value)} />
        </div>
        <div className="field buttons">
          <button type="submit">Show scratchpad</button>
        </div>
      </form>
      <ErrorLine error={error} />
      {wm && (
        <div className="wm">
          <p role="status" className="count" data-testid="wm-summary">
            session <strong>{wm.session_id}</strong> · version {wm.version} · {wm.tokens} / {wm.max_tokens} tokens · {wm.items.length} items · {wm.evicted_count} evicted
          </p>
          {wm.version === 0 && <p className="hint">This session has no scratchpad.</p>}
          {wm.plan && (
            <>
              <h2>Plan</h2>
              <p className="content">{wm.plan}</p>
            </>
          )}
          {wm.items.length > 0 && (
            <>
              <h2>Items</h2>
              <table className="facts">
                <thead>
                  <tr>
                    <th scope="col">id</th>
                    <th scope="col">kind</th>
                    <th scope="col">priority</th>
                    <th scope="col">content</th>
                    <th scope="col">source</th>
                    <th scope="col">added</th>
                  </tr>
                </thead>
                <tbody>
                  {wm.items.map((it) => (
                    <tr key={it.id}>
                      <td><code>{it.id}</code></td>
                      <td>{it.kind}</td>
                      <td>{it.priority}</td>
                      <td>{it.content}</td>
                      <td>{it.source ?? '—'}</td>
                      <td>{fmtTime(it.added_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          {wm.entities.length > 0 && (
            <>
              <h2>Key facts</h2>
              <dl className="kv">
                {wm.entities.map((en) => (
                  <div key={en.key}>
                    <dt>{en.key}</dt>
                    <dd>{en.value}</dd>
                  </div>
                ))}
              </dl>
            </>
          )}
          {wm.summary && (
            <>
              <h2>Summary of earlier turns</h2>
              <p>{wm.summary}</p>
            </>
          )}
          {wm.turns.length > 0 && (
            <>
              <h2>Turns</h2>
              <ol className="turns">
                {wm.turns.map((t, i) => (
                  <li key={i}>
                    <strong>{t.role}</strong>: {t.content}
                  </li>
                ))}
              </ol>
            </>
          )}
          <h2>As prompt text</h2>
          <pre className="prompt" tabIndex={0} aria-label="Working memory as prompt text">
            {wm.text}
          </pre>
        </div>
      )}
    </section>
  );
}
