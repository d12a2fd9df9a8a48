/**
 * A score breakdown: one labelled bar per signal the engine reported (null signals are shown as "—"; a negative one,
 * what a read step took off the final score such as `situation`, as a bar of another colour), and a weak match
 * flagged; and the "weak match" badge an item's heading carries.
 */
import { LIFT_NAMES, LIFTS, type ScoreBreakdown } from '../api/types';

/** Fusion inputs first, then the fused relevance and its weights' other signals, then the reranker's, then the lifts after the weighted sum. */
const ORDER: readonly string[] = ['vector', 'lexical', 'relevance', 'recency', 'importance', 'confidence', 'outcome', 'rerank', ...LIFT_NAMES];
const rank = (k: string) => (ORDER.includes(k) ? ORDER.indexOf(k) : ORDER.length);

const WEAK_WHY = 'kept only because nothing closer was found';

/** What the outcome bonus and the changes made after the weighted sum mean (the engine's registry, lifts.ts): shown as the label's tooltip. */
const WHY: Record<string, string> = {
  outcome: 'the outcome bonus: a failed or corrected case relevant to the query teaches most',
  ...Object.fromEntries(LIFT_NAMES.map((k) => [k, LIFTS[k].description])),
};

/**
 * "weak match" when the query met the relevance floor only weakly (the engine's floor.ts): the item is one of a few
 * best memories, not a confident match — the tag the rendered prompt gives it too.
 */
export function WeakMatchBadge({ scores }: { scores: ScoreBreakdown }) {
  if (scores.weak !== true) return null;
  return (
    <span className="badge weak" title={`weak match: ${WEAK_WHY}`} data-testid="weak-match">
      weak match
    </span>
  );
}

export function ScoreBars({ scores }: { scores: ScoreBreakdown }) {
  const entries = Object.entries(scores)
    .filter((e): e is [string, number | null] => e[0] !== 'final' && (typeof e[1] === 'number' || e[1] === null))
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  return (
    <dl className="scores">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt title={v === null ? undefined : WHY[k]}>{k}</dt>
          <dd>
            {v === null ? (
              '—'
            ) : (
              <>
                <span className={v < 0 ? 'bar fall' : 'bar'} style={{ width: `${Math.round(Math.min(1, Math.abs(v)) * 60)}px` }} aria-hidden="true" />
                {v.toFixed(3)}
              </>
            )}
          </dd>
        </div>
      ))}
      {scores.weak === true && (
        <div key="weak">
          <dt>weak match</dt>
          <dd>{WEAK_WHY}</dd>
        </div>
      )}
    </dl>
  );
}
