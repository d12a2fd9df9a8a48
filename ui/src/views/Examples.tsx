/**
 * Feedback examples: query → response pairs judged good (+) or bad (−). Toggling gives the other verdict
 * (the API flips the example); deleting removes it, after a confirmation.
 */
import { useCallback, useEffect, useState } from 'react';
import type { Example } from '../api/learn-types';
import { ConfirmButton } from '../components/Confirm';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';

export function Examples() {
  const api = useApi();
  const [polarity, setPolarity] = useState('');
  const [examples, setExamples] = useState<Example[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');

  const load = useCallback(() => {
    api.listExamples({ ...(polarity ? { polarity } : {}), limit: 1000 }).then(
      (r) => setExamples(r.examples),
      (e: unknown) => setError(e),
    );
  }, [api, polarity]);
  useEffect(load, [load]);

  async function toggle(x: Example) {
    try {
      const scope = Object.fromEntries((['user_id', 'agent_id', 'session_id', 'task_id'] as const).filter((k) => x[k]).map((k) => [k, x[k]]));
      const r = await api.giveFeedback({ ...scope, query: x.query, response: x.response, feedback: x.polarity === 'positive' ? 'negative' : 'positive' });
      setNotice(`${r.action}: now ${r.example.polarity}`);
      load();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section aria-label="Examples">
      <div className="filters">
        <div className="field">
          <label htmlFor="ex-polarity">Verdict</label>
          <select id="ex-polarity" value={polarity} onChange={(e) => setPolarity(e.target.value)}>
            <option value="">both</option>
            <option value="positive">+ positive</option>
            <option value="negative">− negative</option>
          </select>
        </div>
      </div>
      <p role="status" className="count" data-testid="examples-count">
        {examples ? `${examples.length} examples` : 'loading…'}
        {notice ? ` · ${notice}` : ''}
      </p>
      <ErrorLine error={error} />
      <ul className="cards wide">
        {examples?.map((x) => (
          <li key={x.id} data-testid="example">
            <article className="card static" aria-label={`${x.polarity} example`}>
              <p>
                <span className={`badge ${x.polarity === 'positive' ? 'outcome-success' : 'outcome-failure'}`}>{x.polarity === 'positive' ? '+ positive' : '− negative'}</span>{' '}
                <span className="hint">
                  {x.origin} · {x.user_id ? `user ${x.user_id}` : 'shared'} · {fmtTime(x.created_at)}
                </span>
              </p>
              <p>
                <strong>Q:</strong> {x.query}
              </p>
              <p>
                <strong>A:</strong> {x.response}
              </p>
              {x.reason && <p className="hint">why: {x.reason}</p>}
              <div className="actions">
                <button type="button" className="secondary" onClick={() => void toggle(x)}>
                  Mark {x.polarity === 'positive' ? 'negative' : 'positive'}
                </button>
                <ConfirmButton
                  confirm={{
                    title: 'Delete this example?',
                    message: 'It will no longer guide answers.',
                    confirmLabel: 'Delete example',
                    onConfirm: async () => {
                      await api.deleteExample(x.id);
                      setNotice('deleted');
                      load();
                    },
                  }}
                >
                  Delete…
                </ConfirmButton>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}
