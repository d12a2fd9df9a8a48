/**
 * The timeline's rows: pages of GET /v1/events (chronological, paged by seq) loaded as the list scrolls, or,
 * when a text is given, the best matches of POST /v1/search over events (the list API has no text filter).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EngramApi, EventListQuery } from '../api/client';
import type { ScopeQuery } from '../api/types';

/** The first page is small so the list paints at once; later pages are larger but still parse in a frame or two. */
export const FIRST_PAGE = 300;
export const PAGE = 1000;
const SEARCH_K = 500;

export interface TimelineFilters extends ScopeQuery {
  type?: string;
  tags?: string;
  since?: string;
  until?: string;
  text?: string;
}

export interface Row {
  id: string;
  seq?: number;
  ts: string;
  type: string;
  actor?: string;
  text: string;
  user_id?: string;
  session_id?: string;
  tags: string[];
  score?: number;
}

/** datetime-local values are local wall-clock times; the API takes ISO-8601. */
export function isoOf(v: string | undefined): string | undefined {
  if (!v) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function tagList(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

export function listQuery(f: TimelineFilters, after_seq: number | undefined, limit: number): EventListQuery {
  return {
    user_id: f.user_id,
    agent_id: f.agent_id,
    session_id: f.session_id,
    task_id: f.task_id,
    type: f.type ? [f.type] : undefined,
    tag: tagList(f.tags),
    since: isoOf(f.since),
    until: isoOf(f.until),
    after_seq,
    limit,
  };
}

export function useTimeline(api: EngramApi, filters: TimelineFilters, reloadToken: number) {
  const [rows, setRows] = useState<Row[]>([]);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The live request's generation: a page that arrives after the filters changed is dropped.
  const gen = useRef(0);
  const busy = useRef(false);
  const lastSeq = useRef<number | undefined>(undefined);

  const loadPage = useCallback(
    async (g: number) => {
      if (busy.current) return;
      busy.current = true;
      setLoading(true);
      try {
        if (filters.text?.trim()) {
          // An operator's read of the whole tenant: the filters match exactly (docs/scopes.md, 'strict').
          const { hits } = await api.search({ query: filters.text.trim(), kinds: ['event'], k: SEARCH_K, scope_mode: 'strict', ...scopeOnly(filters) });
          if (g !== gen.current) return;
          const want = new Set(tagList(filters.tags));
          setRows(
            hits
              .filter((h) => (!filters.type || h.doc.type === filters.type) && [...want].every((t) => h.doc.tags.includes(t)))
              .map((h) => ({ id: h.doc.ref_id, ts: h.doc.ts, type: h.doc.type ?? 'event', text: h.doc.text, user_id: h.doc.user_id, session_id: h.doc.session_id, tags: h.doc.tags, score: h.score })),
          );
          setDone(true);
          return;
        }
        const limit = lastSeq.current === undefined ? FIRST_PAGE : PAGE;
        const { events } = await api.listEvents(listQuery(filters, lastSeq.current, limit));
        if (g !== gen.current) return;
        lastSeq.current = events.at(-1)?.seq ?? lastSeq.current;
        setRows((prev) =>
          prev.concat(
            events.map((e) => ({ id: e.id, seq: e.seq, ts: e.ts, type: e.type, actor: e.actor, text: e.content, user_id: e.user_id, session_id: e.session_id, tags: e.tags })),
          ),
        );
        if (events.length < limit) setDone(true);
      } catch (e) {
        if (g === gen.current) setError(e);
      } finally {
        busy.current = false;
        if (g === gen.current) setLoading(false);
      }
    },
    [api, filters],
  );

  useEffect(() => {
    gen.current += 1;
    busy.current = false;
    lastSeq.current = undefined;
    setRows([]);
    setDone(false);
    setError(null);
    void loadPage(gen.current);
  }, [loadPage, reloadToken]);

  const loadMore = useCallback(() => {
    if (!done && !error) void loadPage(gen.current);
  }, [done, error, loadPage]);

  return { rows, done, loading, error, loadMore };
}

function scopeOnly(f: TimelineFilters): ScopeQuery {
  const out: ScopeQuery = {};
  if (f.user_id) out.user_id = f.user_id;
  if (f.agent_id) out.agent_id = f.agent_id;
  if (f.session_id) out.session_id = f.session_id;
  if (f.task_id) out.task_id = f.task_id;
  return out;
}
