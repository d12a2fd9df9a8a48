/** Procedures: learned workflows with their trigger, steps and success rate over their uses. */
import { useEffect, useState } from 'react';
import type { Procedure } from '../api/learn-types';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';

export function successRate(p: Procedure): number | null {
  const n = p.success_count + p.failure_count;
  return n === 0 ? null : p.success_count / n;
}

export function Procedures() {
  const api = useApi();
  const [procs, setProcs] = useState<Procedure[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    api.listProcedures().then(
      (r) => setProcs(r.procedures),
      (e: unknown) => setError(e),
    );
  }, [api]);

  return (
    <section aria-label="Procedures">
      <p role="status" className="count" data-testid="procedures-count">
        {procs ? `${procs.length} procedures` : 'loading…'}
      </p>
      <ErrorLine error={error} />
      <ul className="cards wide">
        {procs?.map((p) => {
          const rate = successRate(p);
          return (
            <li key={p.id} data-testid="procedure">
              <article className="card static" aria-labelledby={`proc-${p.id}`}>
                <h2 id={`proc-${p.id}`}>{p.name}</h2>
                <p className="hint">
                  when: {p.trigger} · {p.user_id ? `user ${p.user_id}` : 'shared'} · updated {fmtTime(p.updated_at)}
                </p>
                <p>
                  <meter min={0} max={1} value={rate ?? 0} aria-label={`success rate ${rate === null ? 'unknown' : `${Math.round(rate * 100)}%`}`} />{' '}
                  {rate === null ? 'not used yet' : `${Math.round(rate * 100)}% success`} ({p.success_count} ✓ / {p.failure_count} ✗)
                </p>
                {p.preconditions.length > 0 && <p className="hint">preconditions: {p.preconditions.join('; ')}</p>}
                <ol>
                  {p.steps.map((s, i) => (
                    <li key={i}>{s}</li>
                  ))}
                </ol>
                {p.notes.length > 0 && (
                  <details>
                    <summary>{p.notes.length} notes</summary>
                    <ul>
                      {p.notes.map((n, i) => (
                        <li key={i}>{n}</li>
                      ))}
                    </ul>
                  </details>
                )}
              </article>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
