/** Timeline: every event of the tenant, filtered, in a virtualized list; the selected event's detail beside it. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ErrorLine } from '../components/Status';
import { useApi } from '../components/useApi';
import { EventDetail } from './EventDetail';
import { TimelineFilters } from './TimelineFilters';
import { ROW_HEIGHT, TimelineRow } from './TimelineRow';
import { useTimeline, type TimelineFilters as Filters } from './timeline-data';

/** Fetch the next page this many rows before the end of what is loaded. */
const PREFETCH_ROWS = 600;

function eventInHash(): string | null {
  return new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('event');
}

export function Timeline() {
  const api = useApi();
  const [filters, setFilters] = useState<Filters>({});
  const [reload, setReload] = useState(0);
  const [selected, setSelected] = useState<string | null>(eventInHash);
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

  useEffect(() => {
    if (!done && !loading && rows.length > 0 && lastIndex >= rows.length - PREFETCH_ROWS) loadMore();
  }, [lastIndex, rows.length, done, loading, loadMore]);

  // Other views link to an event as #/timeline?event=<id>.
  useEffect(() => {
    const onHash = () => {
      const id = eventInHash();
      if (id) setSelected(id);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const apply = useCallback((f: Filters) => {
    setSelected(null);
    setNotice('');
    setFilters(f);
  }, []);

  const afterChange = useCallback((message: string) => {
    setNotice(message);
    setSelected(null);
    setReload((r) => r + 1);
  }, []);

  return (
    <div className="split">
      <section aria-label="Events" className="pane">
        <TimelineFilters onApply={apply} />
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
              return <TimelineRow key={r.id} row={r} top={v.start} selected={selected === r.id} onSelect={setSelected} />;
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
