/** Timeline: every event of the tenant, filtered, in a virtualized list; the selected event's detail beside it. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { EVENT_TYPES } from '../api/types';
import { ScopeFields } from '../components/ScopeFields';
import { ErrorLine, fmtTime } from '../components/Status';
import { useApi } from '../components/useApi';
import { EventDetail } from './EventDetail';
import { useTimeline, type TimelineFilters } from './timeline-data';

const ROW_HEIGHT = 34;
/** Fetch the next page this many rows before the end of what is loaded. */
const PREFETCH_ROWS = 600;

export function Timeline() {
  const api = useApi();
  const [draft, setDraft] = useState<TimelineFilters>({});
  const [filters, setFilters] = useState<TimelineFilters>({});
  const [reload, setReload] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const { rows, done, loading, error, loadMore } = useTimeline(api, filters, reload);

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;

  // Fetch the next page before the user reaches the end of what is loaded.
  useEffect(() => {
    if (!done && !loading && rows.length > 0 && lastIndex >= rows.length - PREFETCH_ROWS) loadMore();
  }, [lastIndex, rows.length, done, loading, loadMore]);

  function apply(e: FormEvent) {
    e.preventDefault();
    setSelected(null);
    setFilters({ ...draft });
  }

  function afterChange(message: string) {
    setNotice(message);
    setSelected(null);
    setReload((r) => r + 1);
  }

  return (
    <div className="split">
      <section aria-label="Events" className="pane">
        <form className="filters" onSubmit={apply} aria-label="Event filters">
          <ScopeFields idPrefix="tl" value={draft} onChange={setDraft} />
          <div className="field">
            <label htmlFor="tl-type">Type</label>
            <select id="tl-type" value={draft.type ?? ''} onChange={(e) => setDraft({ ...draft, type: e.target.value || undefined })}>
              <option value="">any</option>
              {EVENT_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="tl-tags">Tags (all of, comma-separated)</label>
            <input id="tl-tags" value={draft.tags ?? ''} onChange={(e) => setDraft({ ...draft, tags: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="tl-since">From</label>
            <input id="tl-since" type="datetime-local" value={draft.since ?? ''} onChange={(e) => setDraft({ ...draft, since: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="tl-until">Until</label>
            <input id="tl-until" type="datetime-local" value={draft.until ?? ''} onChange={(e) => setDraft({ ...draft, until: e.target.value })} />
          </div>
          <div className="field wide">
            <label htmlFor="tl-text">Text (searches events)</label>
            <input id="tl-text" type="search" value={draft.text ?? ''} onChange={(e) => setDraft({ ...draft, text: e.target.value })} />
          </div>
          <div className="field buttons">
            <button type="submit">Apply filters</button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setDraft({});
                setFilters({});
              }}
            >
              Clear
            </button>
          </div>
        </form>
        <p role="status" className="count" data-testid="timeline-count">
          {rows.length.toLocaleString('en-US')} {filters.text ? 'matching' : ''} events{done ? '' : ' loaded so far'}
          {loading ? ' · loading…' : ''}
          {notice ? ` · ${notice}` : ''}
        </p>
        <ErrorLine error={error} />
        <div ref={scroller} className="vlist" data-testid="timeline-scroller" tabIndex={-1}>
          <div role="list" aria-label="Timeline events" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((v) => {
              const r = rows[v.index]!;
              return (
                <div role="listitem" key={r.id} className="vrow" style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}>
                  <button type="button" className={`rowbtn${selected === r.id ? ' selected' : ''}`} aria-pressed={selected === r.id} onClick={() => setSelected(r.id)}>
                    <span className="ts">{fmtTime(r.ts)}</span>
                    <span className={`badge type-${r.type}`}>{r.type}</span>
                    <span className="who">{r.userId ?? '—'}</span>
                    <span className="text">{r.text}</span>
                    {r.score !== undefined && <span className="score">{r.score.toFixed(3)}</span>}
                  </button>
                </div>
              );
            })}
          </div>
        </div>
        {!done && (
          <button type="button" className="secondary more" onClick={loadMore} disabled={loading}>
            Load more
          </button>
        )}
      </section>
      <section aria-label="Event detail" className="pane detail">
        {selected ? <EventDetail id={selected} onChanged={afterChange} /> : <p className="hint">Select an event to see its detail and provenance.</p>}
      </section>
    </div>
  );
}
