/**
 * Entities and relations (the knowledge graph) with a time control. Relations are bi-temporal: the "as of"
 * slider shows the graph as Engram knew it at that instant (recorded → closed), or as it held in the world
 * (valid from → valid to). The graph (Cytoscape.js) is mirrored by keyboard-reachable lists: the entities, and
 * the selected entity's relations with their validity, each naming the other end as a button.
 */
import { useEffect, useMemo, useState } from 'react';
import type { GraphEntity, GraphRelation } from '../api/graph-types';
import { EntityGraph } from '../components/EntityGraph';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';

type Mode = 'recorded' | 'valid';

const ms = (iso: string | undefined) => (iso ? Date.parse(iso) : undefined);

/** Whether the relation was believed (recorded) or held (valid) at `t`. */
export function liveAt(r: GraphRelation, t: number, mode: Mode): boolean {
  if (mode === 'recorded') return ms(r.recorded_at)! <= t && (r.expired_at === undefined || ms(r.expired_at)! > t);
  return (r.valid_from === undefined || ms(r.valid_from)! <= t) && (r.valid_to === undefined || ms(r.valid_to)! > t);
}

/** The distinct instants at which a relation began or ended, in recorded or valid time, oldest first. */
export function changePoints(relations: readonly GraphRelation[], mode: Mode): number[] {
  const all = relations.flatMap((r) => (mode === 'recorded' ? [r.recorded_at, r.expired_at] : [r.valid_from, r.valid_to]).map(ms));
  return [...new Set(all.filter((x): x is number => x !== undefined))].sort((a, b) => a - b);
}

function span(r: GraphRelation, mode: Mode): string {
  const [a, b] = mode === 'recorded' ? [r.recorded_at, r.expired_at] : [r.valid_from, r.valid_to];
  return `${a ? fmtTime(a) : '…'} → ${b ? fmtTime(b) : 'open-ended'}`;
}

export function Entities() {
  const api = useApi();
  const [entities, setEntities] = useState<GraphEntity[] | null>(null);
  const [relations, setRelations] = useState<GraphRelation[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode>('recorded');
  /** Index into the change points; past the last one means now. */
  const [pos, setPos] = useState(Number.MAX_SAFE_INTEGER);
  const [now] = useState(() => Date.now());

  useEffect(() => {
    Promise.all([api.listEntities(), api.listRelations()]).then(
      ([e, r]) => {
        setEntities(e);
        setRelations(r);
      },
      (err: unknown) => setError(err),
    );
  }, [api]);

  // The control steps through the instants at which the graph changed (in the chosen time), then now.
  const points = useMemo(() => changePoints(relations, mode), [relations, mode]);
  const step = pos > points.length ? points.length : pos;
  const t = step < points.length ? points[step]! : now;
  const live = useMemo(() => relations.filter((r) => liveAt(r, t, mode)), [relations, t, mode]);
  const byId = useMemo(() => new Map((entities ?? []).map((e) => [e.id, e])), [entities]);
  const shownIds = new Set(live.flatMap((r) => [r.source_id, r.target_id]));
  if (selected) shownIds.add(selected);
  const nodes = useMemo(
    () => [...shownIds].flatMap((id) => (byId.has(id) ? [{ id, label: byId.get(id)!.name, type: byId.get(id)!.entity_type }] : [])),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [byId, [...shownIds].sort().join()],
  );
  const edges = useMemo(() => live.map((r) => ({ id: r.id, source: r.source_id, target: r.target_id, label: r.type.replace(/_/g, ' ') })), [live]);
  const current = selected ? byId.get(selected) : undefined;
  const name = (id: string) => byId.get(id)?.name ?? id;

  return (
    <div className="split">
      <section aria-label="Entity graph" className="pane">
        <div className="filters" role="group" aria-label="Time control">
          <div className="field">
            <label htmlFor="eg-mode">Time</label>
            <select id="eg-mode" value={mode} onChange={(e) => { setMode(e.target.value as Mode); setPos(Number.MAX_SAFE_INTEGER); }}>
              <option value="recorded">as Engram knew it (recorded)</option>
              <option value="valid">as it held in the world (valid)</option>
            </select>
          </div>
          <div className="field wide">
            <label htmlFor="eg-asof">As of</label>
            <input
              id="eg-asof"
              type="range"
              min={0}
              max={points.length}
              step={1}
              value={step}
              onChange={(e) => setPos(Number(e.target.value))}
              aria-valuetext={step < points.length ? fmtTime(new Date(t).toISOString()) : 'now'}
            />
          </div>
        </div>
        <p role="status" className="count" data-testid="entities-count">
          {entities
            ? `As of ${step < points.length ? fmtTime(new Date(t).toISOString()) : 'now'}: ${live.length} of ${relations.length} relations, ${entities.length} entities`
            : 'loading…'}
        </p>
        <ErrorLine error={error} />
        {entities && <EntityGraph nodes={nodes} edges={edges} selected={selected} onSelect={setSelected} />}
        <h2>Entities</h2>
        <ul className="chips" aria-label="Entities">
          {entities?.map((e) => (
            <li key={e.id}>
              <button type="button" className="secondary" aria-pressed={selected === e.id} onClick={() => setSelected(e.id)}>
                {e.name} <span className="hint">{e.entity_type}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Entity detail" className="pane detail">
        {!current ? (
          <p className="hint">Select an entity to see its aliases, observations and relations over time.</p>
        ) : (
          <div data-testid="entity-detail">
            <h2>
              {current.name} <span className="badge muted">{current.entity_type}</span>
            </h2>
            {current.aliases.length > 0 && <p className="hint">also: {current.aliases.join(', ')}</p>}
            {current.observations.length > 0 && (
              <>
                <h3>Observations</h3>
                <ul>
                  {current.observations.map((o, i) => (
                    <li key={i}>{o}</li>
                  ))}
                </ul>
              </>
            )}
            <h3>Relations</h3>
            <ul aria-label="Relations" className="relations">
              {relations
                .filter((r) => r.source_id === current.id || r.target_id === current.id)
                .map((r) => {
                  const other = r.source_id === current.id ? r.target_id : r.source_id;
                  const holds = liveAt(r, t, mode);
                  return (
                    <li key={r.id} className={holds ? undefined : 'closed'}>
                      {name(r.source_id)} <strong>{r.type.replace(/_/g, ' ')}</strong> {name(r.target_id)}{' '}
                      <span className={`badge ${holds ? 'type-outcome' : 'muted'}`}>{holds ? 'holds' : 'not then'}</span>
                      <br />
                      <span className="hint">
                        {mode}: {span(r, mode)}
                      </span>{' '}
                      <button type="button" className="link" onClick={() => setSelected(other)}>
                        show {name(other)}
                      </button>
                    </li>
                  );
                })}
            </ul>
          </div>
        )}
      </section>
    </div>
  );
}
