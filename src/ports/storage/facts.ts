/** The facts sub-port: versioned semantic memory. */
import type { Fact, FactEvidence, FactKind } from '../../core/types.js';
import type { ScopeFilter } from './common.js';

/**
 * Listing facts. Default: the live version of each lineage whose TTL has not passed and whose validity has not
 * ended (`validTo` > now or unset). With `asOf` (valid time) and/or `knownAt` (transaction time): for each
 * lineage, the latest version Engram had recorded by `knownAt` (default now) that is valid at `asOf` (default
 * `knownAt`, else now); a version closed only after `knownAt` counts as open-ended (its end was not known yet).
 * `includeExpired`: every version, no time rule.
 * Ordered by (recordedAt, id); `after` continues after that position (cursor pagination).
 */
export interface FactListQuery {
  tenant: string;
  scope?: ScopeFilter;
  includeExpired?: boolean;
  asOf?: number;
  knownAt?: number;
  kinds?: FactKind[];
  after?: { recordedAt: number; id: string };
  limit?: number;
  now: number;
}

export interface FactVersionQuery {
  tenant: string;
  key: string;
}

/** Semantic memory: versioned facts (rows are never overwritten) and their evidence. */
export interface FactStore {
  /**
   * Inserts a fact version. With `supersedes`, atomically closes that version (`expiredAt`, and `validTo`
   * when unset) so exactly one version of a key is live. Dedupe: if a live version of the same key already
   * has the same content hash, nothing is written and that version is returned.
   */
  putFact(fact: Fact): Promise<{ fact: Fact; duplicate: boolean }>;
  getFact(tenant: string, id: string): Promise<Fact | undefined>;
  /**
   * Optional: versions by id (as `getFact` for each), in the order asked, ids not found left out, in one read.
   * The read path loads its candidates' facts with it; without it, one `getFact` per id.
   */
  getFacts?(tenant: string, ids: readonly string[]): Promise<Fact[]>;
  /** The live (unexpired, unsuperseded) version of a key. */
  getLiveFact(tenant: string, key: string, now: number): Promise<Fact | undefined>;
  /** All versions of a key, oldest first. */
  getFactVersions(q: FactVersionQuery): Promise<Fact[]>;
  /** A live fact in the same scope whose source and content hash match (dedupe by source+hash). */
  findFactByHash(tenant: string, scope: ScopeFilter, source: string | undefined, contentHash: string, now: number): Promise<Fact | undefined>;
  /** Updates the evidence counters of one version (text never changes in place). */
  updateFactStats(tenant: string, id: string, stats: Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount'>): Promise<void>;
  listFacts(q: FactListQuery): Promise<Fact[]>;
  addFactEvidence(rows: readonly FactEvidence[]): Promise<void>;
  getFactEvidence(tenant: string, factId: string): Promise<FactEvidence[]>;
}
