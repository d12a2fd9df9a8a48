/** The timeline's filter form; memoized, so scrolling the list never re-renders it. */
import { memo, useState, type FormEvent } from 'react';
import { EVENT_TYPES } from '../api/types';
import { ScopeFields } from '../components/ScopeFields';
import type { TimelineFilters as Filters } from './timeline-data';

export const TimelineFilters = memo(function TimelineFilters({ onApply }: { onApply: (f: Filters) => void }) {
  const [draft, setDraft] = useState<Filters>({});

  function apply(e: FormEvent) {
    e.preventDefault();
    onApply({ ...draft });
  }

  return (
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
            onApply({});
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
});
