/** The learn-graph sub-port: episodes, links, procedures and feedback examples. */
import type { Episode, Example, ExamplePolarity, Link, LinkType, Outcome, Procedure } from '../../core/types.js';
import type { ScopeFilter } from './common.js';

export interface EpisodeQuery {
  tenant: string;
  scope?: ScopeFilter;
  streamKey?: string;
  closed?: boolean;
  outcomes?: Outcome[];
  /** endTs >= since */
  since?: number;
  /** Newest first (by endTs) when 'desc'; default 'asc'. */
  order?: 'asc' | 'desc';
  limit?: number;
}

export interface LinkQuery {
  tenant: string;
  ids: readonly string[];
  /** 'out': links whose fromId is in ids; 'in': toId in ids; 'both'. */
  direction: 'out' | 'in' | 'both';
  types?: LinkType[];
}

export interface TraverseQuery extends LinkQuery {
  maxDepth: number;
  limit: number;
}

export interface ProcedureQuery {
  tenant: string;
  scope?: ScopeFilter;
  limit?: number;
}

export interface ExampleQuery {
  tenant: string;
  scope?: ScopeFilter;
  polarity?: ExamplePolarity;
  limit?: number;
}

/** What the learn path builds: episodes, the links between memories, procedures and feedback examples. */
export interface LearnGraphStore {
  /**
   * Inserts or replaces an episode by id (episodes grow while open). A closed episode is projected as a doc of
   * kind 'episode' (text: summary, root cause, corrections) so retrieval finds it; an open one is not.
   */
  putEpisode(episode: Episode): Promise<void>;
  getEpisodes(tenant: string, ids: readonly string[]): Promise<Episode[]>;
  listEpisodes(q: EpisodeQuery): Promise<Episode[]>;

  /**
   * Upserts by (tenant, type, fromId, toId). Re-asserting an existing link keeps its id and creation time, sets
   * weight to max(old, new) and origin to 'reinforced'. Returns the stored links in input order.
   */
  putLinks(links: readonly Link[]): Promise<Link[]>;
  getLinks(q: LinkQuery): Promise<Link[]>;
  /** Breadth-first walk from `ids` along links of `types` in `direction`; each link once, with its hop depth (1..maxDepth). */
  traverse(q: TraverseQuery): Promise<{ link: Link; depth: number }[]>;
  deleteLinks(tenant: string, ids: readonly string[]): Promise<number>;

  /** Procedures are projected as docs of kind 'procedure': name, trigger and steps. */
  putProcedure(p: Procedure): Promise<void>;
  getProcedures(tenant: string, ids: readonly string[]): Promise<Procedure[]>;
  listProcedures(q: ProcedureQuery): Promise<Procedure[]>;

  /** Feedback examples are projected as docs of kind 'example': the query text. */
  putExample(e: Example): Promise<void>;
  getExamples(tenant: string, ids: readonly string[]): Promise<Example[]>;
  /** The example with this content hash in exactly this scope, whatever its polarity. */
  findExample(tenant: string, scope: ScopeFilter, contentHash: string): Promise<Example | undefined>;
  listExamples(q: ExampleQuery): Promise<Example[]>;
  deleteExample(tenant: string, id: string): Promise<boolean>;
}
