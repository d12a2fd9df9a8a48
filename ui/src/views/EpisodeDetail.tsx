/** One episode: what happened and why, its links as a causal graph (and as a keyboard-usable list), its events. */
import { useEffect, useState } from 'react';
import type { CausalChain, Episode, Link } from '../api/learn-types';
import { CausalGraph, type GraphNode } from '../components/CausalGraph';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';
import { OutcomeBadge } from './Episodes';

interface Loaded {
  episode: Episode;
  links: Link[];
  nodes: GraphNode[];
  chain: CausalChain | null;
}

const short = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Links touching the episode, plus those of its episode neighbours (one more hop), for a readable graph. */
async function loadGraph(api: ReturnType<typeof useApi>, id: string): Promise<Loaded> {
  const { episode, links } = await api.getEpisode(id);
  const neighbours = [...new Set(links.flatMap((l) => [l.from_id, l.to_id]))].filter((n) => n !== id && n.startsWith('eps_')).slice(0, 12);
  const more = await Promise.all(neighbours.map((n) => api.getEpisode(n).catch(() => null)));
  const allLinks = new Map(links.map((l) => [l.id, l]));
  const episodes = new Map<string, Episode>([[id, episode]]);
  for (const m of more) {
    if (!m) continue;
    episodes.set(m.episode.id, m.episode);
    for (const l of m.links) if (episodes.has(l.from_id) || episodes.has(l.to_id)) allLinks.set(l.id, l);
  }
  const ids = new Set([...allLinks.values()].flatMap((l) => [l.from_id, l.to_id]));
  ids.add(id);
  const nodes: GraphNode[] = [...ids].map((n) => {
    const ep = episodes.get(n);
    return ep ? { id: n, label: `${ep.outcome}: ${short(ep.summary, 48)}`, outcome: ep.outcome, focus: n === id } : { id: n, label: n };
  });
  const chain = await api.causalChain(id).catch(() => null);
  return { episode, links: [...allLinks.values()], nodes, chain };
}

function List({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul>
        {items.map((d, i) => (
          <li key={i}>{d}</li>
        ))}
      </ul>
    </>
  );
}

export function EpisodeDetail({ id, onSelect }: { id: string; onSelect: (id: string) => void }) {
  const api = useApi();
  const [data, setData] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    setData(null);
    setError(null);
    loadGraph(api, id).then(
      (d) => live && setData(d),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [api, id]);

  if (error) return <ErrorLine error={error} />;
  if (!data) return <p className="hint">Loading {id}…</p>;
  const { episode: ep, links, nodes, chain } = data;
  const open = (target: string) => {
    if (target.startsWith('eps_')) onSelect(target);
    else if (target.startsWith('evt_')) window.location.hash = `#/timeline?event=${target}`;
  };

  return (
    <article aria-labelledby="episode-title">
      <h2 id="episode-title">
        Episode <OutcomeBadge outcome={ep.outcome} />
      </h2>
      <p className="content" data-testid="episode-summary">
        {ep.summary}
      </p>
      <dl className="kv">
        <div><dt>id</dt><dd>{ep.id}</dd></div>
        <div><dt>time</dt><dd>{fmtTime(ep.start_ts)} → {fmtTime(ep.end_ts)}</dd></div>
        {ep.outcome_details && <div><dt>outcome</dt><dd>{ep.outcome_details}</dd></div>}
        {ep.root_cause && <div><dt>root cause</dt><dd>{ep.root_cause}</dd></div>}
        {ep.state_label && <div><dt>state</dt><dd>{ep.state_label}</dd></div>}
        <div><dt>scope</dt><dd>{[ep.user_id && `user ${ep.user_id}`, ep.session_id && `session ${ep.session_id}`, ep.task_id && `task ${ep.task_id}`].filter(Boolean).join(', ') || '—'}</dd></div>
      </dl>
      <List title="Decisions" items={ep.decisions} />
      <List title="Assumptions" items={ep.assumptions} />
      <List title="Corrections" items={ep.corrections} />

      <h3>Causal graph</h3>
      {links.length === 0 ? <p className="hint">No links yet.</p> : <CausalGraph nodes={nodes} links={links} onSelect={open} />}
      {links.length > 0 && (
        <ul className="links" aria-label="Links">
          {links.map((l) => {
            const other = l.from_id === ep.id ? l.to_id : l.from_id;
            return (
              <li key={l.id}>
                <code>{l.from_id === ep.id ? 'this' : short(l.from_id, 14)}</code> <strong>{l.type}</strong> <code>{l.to_id === ep.id ? 'this' : short(l.to_id, 14)}</code> · weight {l.weight.toFixed(2)} ·{' '}
                {other !== ep.id && (other.startsWith('eps_') || other.startsWith('evt_')) ? (
                  <button type="button" className="link" onClick={() => open(other)}>
                    open {other}
                  </button>
                ) : (
                  <span className="hint">{other}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {chain && chain.narrative && (
        <>
          <h3>Causal narrative</h3>
          <p>{chain.narrative}</p>
        </>
      )}
      <h3>Events</h3>
      <ol className="events">
        {ep.event_ids.map((e) => (
          <li key={e}>
            <a href={`#/timeline?event=${e}`}>{e}</a>
          </li>
        ))}
      </ol>
    </article>
  );
}
