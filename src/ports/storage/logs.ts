/** The logs sub-port: the retrieval log and the audit trail. */

export interface RetrievalRecord {
  id: string;
  tenant: string;
  query: string;
  createdAt: number;
  /** What was handed to the caller, in order: ids of events, facts, episodes … */
  itemIds: string[];
  config: unknown;
  /**
   * Per item handed out, in order: its kind, section and score breakdown, so the retrieval log can say why it
   * was recalled. Absent on records written before it was kept.
   */
  items?: RetrievedItem[] | undefined;
}

export interface RetrievedItem {
  id: string;
  kind: string;
  section: string;
  scores: Record<string, number | null>;
}

/** Newest first (creation order); `beforeId` pages on from the last record of the previous page. */
export interface RetrievalListQuery {
  tenant: string;
  limit: number;
  beforeId?: string | undefined;
  /** created_at >= since, < until (epoch ms). */
  since?: number | undefined;
  until?: number | undefined;
}

/** Keyset position in the audit log: the last record of the previous page. */
export interface AuditCursor {
  at: number;
  id: string;
}

export interface AuditRecord {
  id: string;
  tenant: string;
  at: number;
  action: 'redact' | 'forget' | 'sweep' | 'pii_scrub' | 'import';
  targetIds: string[];
  details: Record<string, unknown>;
}

/** The retrieval log and the audit trail. */
export interface LogStore {
  putRetrieval(rec: RetrievalRecord): Promise<void>;
  getRetrieval(tenant: string, id: string): Promise<RetrievalRecord | undefined>;
  /** Newest first (creation order, i.e. by id); the page after `beforeId` when given. */
  listRetrievals(q: RetrievalListQuery): Promise<RetrievalRecord[]>;
  /** Newest first (by time, then id); the page after `before` when given. */
  listAudit(tenant: string, limit: number, before?: AuditCursor): Promise<AuditRecord[]>;
}
