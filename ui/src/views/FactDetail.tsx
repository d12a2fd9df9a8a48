/**
 * One fact lineage: the current version, editing (a new version), forgetting; then every version with its
 * diff, the validity windows on a time axis and the confidence over versions. (Invalidating without new text
 * needs an API route: remembering the same text with a valid_to is a duplicate and writes nothing.)
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { Fact } from '../api/types';
import { ConfirmButton } from '../components/Confirm';
import { ConfidenceChart } from '../components/ConfidenceChart';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';
import { ValidityAxis } from '../components/ValidityAxis';
import { VersionDiff } from '../components/VersionDiff';

/** The fields a new version carries over from the one it replaces. */
function carried(f: Fact): Record<string, unknown> {
  // Not valid_from: a new version is valid from when it is recorded, unless the engine is told otherwise.
  const keep = ['key', 'kind', 'subject', 'predicate', 'value', 'source', 'section', 'tags', 'metadata', 'importance', 'user_id', 'agent_id', 'session_id', 'task_id'] as const;
  return Object.fromEntries(keep.filter((k) => f[k] !== undefined).map((k) => [k, f[k]]));
}

export function FactDetail({ factKey, onChanged }: { factKey: string; onChanged: (message: string, gone?: boolean) => void }) {
  const api = useApi();
  const [versions, setVersions] = useState<Fact[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [text, setText] = useState('');
  const [saved, setSaved] = useState('');

  const load = useCallback(() => {
    api.factHistory(factKey).then(
      (h) => {
        setVersions(h.versions);
        const cur = h.versions.filter((v) => !v.expired_at).at(-1) ?? h.versions.at(-1);
        setText(cur?.text ?? '');
      },
      (e: unknown) => setError(e),
    );
  }, [api, factKey]);

  useEffect(() => {
    setVersions(null);
    setError(null);
    setSaved('');
    load();
  }, [load]);

  if (error) return <ErrorLine error={error} />;
  if (!versions) return <p className="hint">Loading {factKey}…</p>;
  const current = versions.filter((v) => !v.expired_at).at(-1) ?? versions.at(-1)!;

  async function save(e: FormEvent) {
    e.preventDefault();
    try {
      const r = await api.remember({ ...carried(current), text: text.trim(), confidence: current.confidence });
      setSaved(r.status === 'duplicate' ? 'unchanged: the current version already says this' : `saved version ${r.fact.version}`);
      load();
      onChanged(`${factKey}: ${r.status}`);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <article aria-labelledby="fact-title">
      <h2 id="fact-title">
        Fact <code>{factKey}</code>
      </h2>
      <p className="content" data-testid="fact-current">
        {current.text}
      </p>
      <dl className="kv">
        <div><dt>version</dt><dd data-testid="fact-version">{current.version}</dd></div>
        <div><dt>kind</dt><dd>{current.kind}</dd></div>
        {current.subject && <div><dt>subject · predicate</dt><dd>{current.subject} · {current.predicate ?? '—'}</dd></div>}
        <div><dt>confidence</dt><dd>{current.confidence.toFixed(2)}</dd></div>
        <div><dt>support / contradict</dt><dd>{current.support_count} / {current.contradict_count}</dd></div>
        <div><dt>valid</dt><dd>{fmtTime(current.valid_from)} → {current.valid_to ? fmtTime(current.valid_to) : 'open'}</dd></div>
        <div><dt>recorded</dt><dd>{fmtTime(current.recorded_at)}</dd></div>
        <div><dt>origin</dt><dd>{current.provenance.origin}{current.provenance.note ? ` — ${current.provenance.note}` : ''}</dd></div>
        {current.provenance.event_ids?.length ? <div><dt>from events</dt><dd>{current.provenance.event_ids.join(', ')}</dd></div> : null}
        {current.provenance.episode_ids?.length ? <div><dt>episodes</dt><dd>{current.provenance.episode_ids.join(', ')}</dd></div> : null}
        <div><dt>scope</dt><dd>{[current.user_id && `user ${current.user_id}`, current.session_id && `session ${current.session_id}`, current.agent_id && `agent ${current.agent_id}`].filter(Boolean).join(', ') || 'tenant-shared'}</dd></div>
      </dl>

      <form onSubmit={(e) => void save(e)} className="edit" aria-label="Edit fact">
        <label htmlFor="fact-text">Text of a new version</label>
        <textarea id="fact-text" rows={3} value={text} onChange={(e) => setText(e.target.value)} />
        <div className="actions">
          <button type="submit" disabled={text.trim() === '' || text.trim() === current.text}>
            Save new version
          </button>
          <ConfirmButton
            confirm={{
              title: 'Forget this fact?',
              message: 'Every version of this lineage is deleted for good; an audit record stays.',
              confirmLabel: 'Forget fact',
              onConfirm: async () => {
                const r = await api.forget({ ids: [current.id] });
                onChanged(`forgot ${r.facts} fact version(s)`, true);
              },
            }}
          >
            Forget…
          </ConfirmButton>
        </div>
        {saved && (
          <p role="status" className="ok">
            {saved}
          </p>
        )}
      </form>

      <h3>Validity over time</h3>
      <ValidityAxis versions={versions} />
      <h3>Confidence over versions</h3>
      <ConfidenceChart versions={versions} />
      <h3>Versions</h3>
      <ol className="versions" reversed>
        {versions
          .map((v, i) => ({ v, prev: versions[i - 1] }))
          .reverse()
          .map(({ v, prev }) => (
            <li key={v.id} data-testid="fact-version-item">
              <div className="vhead">
                <strong>v{v.version}</strong> · recorded {fmtTime(v.recorded_at)}
                {v.expired_at ? ` · superseded ${fmtTime(v.expired_at)}` : ' · current'} · confidence {v.confidence.toFixed(2)}
              </div>
              {prev ? <VersionDiff before={prev.text} after={v.text} /> : <p>{v.text}</p>}
            </li>
          ))}
      </ol>
    </article>
  );
}
