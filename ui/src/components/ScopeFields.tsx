/** The scope inputs shared by the filter forms (user, agent, session, task). */
import type { ScopeQuery } from '../api/types';

const FIELDS: { key: keyof ScopeQuery; label: string }[] = [
  { key: 'user_id', label: 'User' },
  { key: 'session_id', label: 'Session' },
  { key: 'task_id', label: 'Task' },
  { key: 'agent_id', label: 'Agent' },
];

export function ScopeFields<T extends ScopeQuery>({ idPrefix, value, onChange }: { idPrefix: string; value: T; onChange: (v: T) => void }) {
  return (
    <>
      {FIELDS.map((f) => (
        <div className="field" key={f.key}>
          <label htmlFor={`${idPrefix}-${f.key}`}>{f.label}</label>
          <input
            id={`${idPrefix}-${f.key}`}
            value={value[f.key] ?? ''}
            onChange={(e) => onChange({ ...value, [f.key]: e.target.value || undefined })}
          />
        </div>
      ))}
    </>
  );
}

/** Drops empty values so they are not sent. */
export function cleanScope(s: ScopeQuery): ScopeQuery {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => typeof v === 'string' && v.trim() !== '').map(([k, v]) => [k, (v as string).trim()]));
}
