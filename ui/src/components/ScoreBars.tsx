/** A score breakdown: one labelled bar per signal the engine reported (null signals are shown as "—"). */
import type { ScoreBreakdown } from '../api/types';

export function ScoreBars({ scores }: { scores: ScoreBreakdown }) {
  const entries = Object.entries(scores).filter(([k]) => k !== 'final');
  return (
    <dl className="scores">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>
            {v === null ? (
              '—'
            ) : (
              <>
                <span className="bar" style={{ width: `${Math.round(Math.min(1, Math.abs(v)) * 60)}px` }} aria-hidden="true" />
                {v.toFixed(3)}
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
