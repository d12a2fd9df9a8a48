/**
 * Retrieval playground: run POST /v1/context with a config (common settings as fields, anything else as JSON
 * merged over them) and show why each item was chosen: its score breakdown, the conflict notes, what was
 * dropped and why (`explain: true`), and the rendered prompt with its token count. `#/playground?retrieval=<id>`
 * opens the look-up on that retrieval (the retrieval log links here).
 */
import { useState, type FormEvent } from 'react';
import type { ContextResult } from '../api/types';
import { ItemLink } from '../components/ItemLink';
import { LookUpRetrieval, RecordOutcome } from '../components/RetrievalPanel';
import { ScoreBars, WeakMatchBadge } from '../components/ScoreBars';
import { ErrorLine } from '../components/Status';
import { useApi } from '../components/useApi';

interface Settings {
  query: string;
  user_id: string;
  session_id: string;
  task_id: string;
  topK: number;
  budget: number;
  windowN: number;
  mmr: number;
  rerank: boolean;
  explain: boolean;
  extra: string;
}

const INITIAL: Settings = { query: '', user_id: '', session_id: '', task_id: '', topK: 5, budget: 3000, windowN: 5, mmr: 0.9, rerank: true, explain: true, extra: '{}' };

/** The retrieval another view asked to look up (`#/playground?retrieval=<id>`). */
function linkedRetrieval(): string | undefined {
  return new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('retrieval') ?? undefined;
}

export function buildBody(s: Settings): Record<string, unknown> {
  const extra: unknown = JSON.parse(s.extra || '{}');
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new TypeError('the extra config must be a JSON object');
  const scope = Object.fromEntries(
    [
      ['user_id', s.user_id],
      ['session_id', s.session_id],
    ].filter(([, v]) => v!.trim() !== ''),
  );
  const base: Record<string, unknown> = {
    query: s.query,
    ...(s.task_id.trim() ? { task_id: s.task_id.trim() } : {}),
    ...(Object.keys(scope).length ? { scope } : {}),
    episodic_window: { n: s.windowN },
    semantic_retrieval: { top_k: s.topK, reranker: { enabled: s.rerank } },
    merge_policy: { token_budget: s.budget },
    diversity: { mmr_lambda: s.mmr },
    ...(s.explain ? { explain: true } : {}),
  };
  return deepMerge(base, extra as Record<string, unknown>);
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k];
    out[k] = isObj(cur) && isObj(v) ? deepMerge(cur, v) : v;
  }
  return out;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function NumberField({ id, label, value, step, min, max, onChange }: { id: string; label: string; value: number; step?: number | 'any'; min: number; max: number; onChange: (n: number) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="number" value={value} step={step ?? 1} min={min} max={max} onChange={(e) => onChange(Number(e.target.value))} />
    </div>
  );
}

export function Playground() {
  const api = useApi();
  const [s, setS] = useState<Settings>(INITIAL);
  const [result, setResult] = useState<ContextResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => setS({ ...s, [k]: v });

  async function run(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setResult(await api.getContext(buildBody(s)));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="playground">
      <form className="filters" onSubmit={(e) => void run(e)} aria-label="Context request">
        <div className="field wide">
          <label htmlFor="pg-query">Query</label>
          <input id="pg-query" required value={s.query} onChange={(e) => set('query', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="pg-user">User</label>
          <input id="pg-user" value={s.user_id} onChange={(e) => set('user_id', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="pg-session">Session</label>
          <input id="pg-session" value={s.session_id} onChange={(e) => set('session_id', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="pg-task">Task</label>
          <input id="pg-task" value={s.task_id} onChange={(e) => set('task_id', e.target.value)} />
        </div>
        <NumberField id="pg-topk" label="top_k" value={s.topK} min={1} max={200} onChange={(n) => set('topK', n)} />
        <NumberField id="pg-budget" label="token budget" value={s.budget} min={1} max={1_000_000} onChange={(n) => set('budget', n)} />
        <NumberField id="pg-window" label="episodic window n" value={s.windowN} min={0} max={500} onChange={(n) => set('windowN', n)} />
        <NumberField id="pg-mmr" label="MMR λ" value={s.mmr} min={0} max={1} step="any" onChange={(n) => set('mmr', n)} />
        <div className="field checkbox">
          <input id="pg-rerank" type="checkbox" checked={s.rerank} onChange={(e) => set('rerank', e.target.checked)} />
          <label htmlFor="pg-rerank">rerank</label>
        </div>
        <div className="field checkbox">
          <input id="pg-explain" type="checkbox" checked={s.explain} onChange={(e) => set('explain', e.target.checked)} />
          <label htmlFor="pg-explain">show dropped items</label>
        </div>
        <div className="field wide">
          <label htmlFor="pg-extra">More config (JSON, merged over the fields)</label>
          <textarea id="pg-extra" rows={2} value={s.extra} onChange={(e) => set('extra', e.target.value)} spellCheck={false} />
        </div>
        <div className="field buttons">
          <button type="submit" disabled={busy}>
            {busy ? 'Running…' : 'Run getContext'}
          </button>
        </div>
      </form>
      <ErrorLine error={error} />
      {result && <ContextView key={result.retrieval_id} result={result} />}
      <LookUpRetrieval initial={linkedRetrieval()} />
    </div>
  );
}

function ContextView({ result }: { result: ContextResult }) {
  return (
    <section aria-label="Context result" className="result">
      <p role="status" className="count" data-testid="pg-summary">
        route <strong>{result.route}</strong> · {result.items.length} items · {result.tokens.used} / {result.tokens.budget} tokens · {result.dropped} over the budget · retrieval{' '}
        <code>{result.retrieval_id}</code>
      </p>
      {result.conflicts.length > 0 && (
        <>
          <h2>Conflict notes</h2>
          <ul className="conflicts">
            {result.conflicts.map((c, i) => (
              <li key={i}>
                <strong>{c.reason}</strong> → {c.action}: {c.note}
                {c.dropped_ids.length > 0 && <> (dropped {c.dropped_ids.join(', ')})</>}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Items</h2>
      <ol className="items">
        {result.items.map((it) => (
          <li key={it.id} data-testid="pg-item">
            <div className="ihead">
              <span className="badge">{it.section}</span> <span className="badge muted">{it.kind}</span> <code>{it.id}</code>
              {it.truncated && <span className="badge warn">truncated</span>} <WeakMatchBadge scores={it.scores} />
              <span className="score">final {it.scores.final.toFixed(3)}</span>
            </div>
            <p>{it.text || <em className="hint">(no text: redacted)</em>}</p>
            <ScoreBars scores={it.scores} />
            <p className="prov">
              {[it.provenance.type, it.provenance.actor, it.provenance.session_id && `session ${it.provenance.session_id}`, it.provenance.source, it.provenance.ts].filter(Boolean).join(' · ')}
            </p>
          </li>
        ))}
      </ol>
      {result.dropped_items && <DroppedItems dropped={result.dropped_items} />}
      <h2>
        Rendered prompt <span className="count">({result.tokens.used} tokens)</span>
      </h2>
      <pre className="prompt" data-testid="pg-prompt" tabIndex={0} aria-label="Rendered prompt">
        {result.text}
      </pre>
      <RecordOutcome retrievalId={result.retrieval_id} />
    </section>
  );
}

type Dropped = NonNullable<ContextResult['dropped_items']>[number];

/** One text per drop reason the API sends: a reason added to the API and not here is a type error. */
const REASONS: Record<Dropped['reason'], string> = {
  dedupe: 'a copy of another candidate',
  mmr: 'not among the top_k diverse picks',
  floor: 'below the relevance floor',
  validity: 'no version of it is valid at the read time',
  situation: 'its situation contradicts what the query states',
  refuted: 'a learned rule the cases refuted',
  superseded: 'a later case replaced it, a closer correction overturned it, or a rule drawn only from such cases',
  standout: 'a look-alike behind a case that stands out',
  conflict: 'the stale side of a conflict',
  budget: 'did not fit the token budget',
};

/** A `superseded` drop says which (`by`); a learned rule leaves with the cases it was drawn from. */
const SUPERSEDED_BY: Record<NonNullable<Dropped['by']>, string> = {
  replaced: 'a later case of its cause replaced it (a rule: the cases it was drawn from)',
  overturned: 'the closest correction overturned its cause (a rule: that of the cases it was drawn from)',
};

const whyDropped = (d: Dropped) => (d.by ? SUPERSEDED_BY[d.by] : undefined) ?? REASONS[d.reason];

function DroppedItems({ dropped }: { dropped: NonNullable<ContextResult['dropped_items']> }) {
  const byReason = new Map<string, number>();
  for (const d of dropped) byReason.set(d.reason, (byReason.get(d.reason) ?? 0) + 1);
  const counts = [...byReason].map(([r, n]) => `${n} ${r}`);
  return (
    <>
      <h2>
        Dropped <span className="count">({dropped.length}{counts.length ? `: ${counts.join(', ')}` : ''})</span>
      </h2>
      {dropped.length === 0 ? (
        <p className="hint">Every candidate considered was handed out.</p>
      ) : (
        <ol className="items dropped" aria-label="Dropped items">
          {dropped.map((d) => (
            <li key={d.id} data-testid="pg-dropped">
              <div className="ihead">
                <span className={`badge reason-${d.reason}`} title={whyDropped(d)}>
                  {d.reason}
                </span>{' '}
                <span className="badge muted">{d.kind}</span> <span className="rid"><ItemLink id={d.id} /></span> <span className="hint">{whyDropped(d)}</span>
                <span className="score">final {d.scores.final.toFixed(3)}</span>
              </div>
              <p>{d.text || <em className="hint">(no text)</em>}</p>
              <details>
                <summary>Score breakdown</summary>
                <ScoreBars scores={d.scores} />
              </details>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
