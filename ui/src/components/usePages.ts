/** A cursor-paged list (the retrieval and audit logs): the first page on mount, more on demand. */
import { useCallback, useEffect, useState } from 'react';

export interface Page<T> {
  rows: T[];
  next: string | null;
}

export function usePages<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {
  const [rows, setRows] = useState<T[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    (cursor: string | undefined) => {
      setBusy(true);
      setError(null);
      fetchPage(cursor)
        .then(
          (p) => {
            setRows((cur) => (cursor && cur ? [...cur, ...p.rows] : p.rows));
            setNext(p.next);
          },
          (e: unknown) => setError(e),
        )
        .finally(() => setBusy(false));
    },
    [fetchPage],
  );
  useEffect(() => load(undefined), [load]);

  return { rows, error, busy, more: next ? () => load(next) : undefined, reload: () => load(undefined) };
}
