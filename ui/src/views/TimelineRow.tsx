/** One row of the virtualized timeline; memoized, so a scroll re-renders only rows that enter the window. */
import { memo } from 'react';
import { fmtTime } from '../components/Status';
import type { Row } from './timeline-data';

export const ROW_HEIGHT = 34;

export const TimelineRow = memo(function TimelineRow({ row, top, selected, onSelect }: { row: Row; top: number; selected: boolean; onSelect: (id: string) => void }) {
  return (
    <div role="listitem" className="vrow" style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}>
      <button type="button" className={`rowbtn${selected ? ' selected' : ''}`} aria-pressed={selected} onClick={() => onSelect(row.id)}>
        <span className="ts">{fmtTime(row.ts)}</span>
        <span className={`badge type-${row.type}`}>{row.type}</span>
        <span className="who">{row.user_id ?? '—'}</span>
        <span className="text">{row.text || '(redacted)'}</span>
        {row.score !== undefined && <span className="score">{row.score.toFixed(3)}</span>}
      </button>
    </div>
  );
});
