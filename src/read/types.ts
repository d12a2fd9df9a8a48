/**
 * Types of the read path. Everything a caller receives (`SearchHit`, `ContextResult`) is plain JSON-safe data;
 * `Candidate` is the internal working record that flows through the steps (candidates → fuse → score →
 * rerank → MMR → dedupe → conflicts → budget → render).
 */
import type { ContextConfig, ConversationConfig, ScopeMode } from '../core/config.js';
import type { Layer } from '../core/layers.js';
import type { GraphHitView } from './graph-render.js';
import type { NewDoc } from '../core/docs.js';
import type { FilterNode } from '../core/filter.js';
import type { TokenCounter } from '../core/tokens.js';
import type { DocKind, Episode, Fact, Link, LinkType, MemoryEvent, Outcome } from '../core/types.js';
import type { Clock } from '../ports/clock.js';
import type { Reranker } from '../ports/reranker.js';
import type { ScopeFilter, Storage } from '../ports/storage.js';
import type { ConflictJudge } from './conflicts.js';
import type { FactPolicy } from '../core/predicates.js';
import type { DroppedItem } from './explain.js';
import type { ScoreLifts } from './lifts.js';

export interface ReadDeps {
  storage: Storage;
  /** Embeds the query (cached by the caller); undefined when no vector is available (embedder down/disabled). */
  embedQuery(text: string): Promise<Float32Array | undefined>;
  reranker: Reranker;
  tokens: TokenCounter;
  clock: Clock;
  /**
   * Read-time PII scrub of every rendered body and note, applied when `guardrails.pii_scrub_at_ingest` is on
   * (records written before scrubbing was enabled, or imported raw, must not leak into a prompt).
   */
  scrubText?: ((text: string) => string) | undefined;
  /** PII scrub of a JSON value (every string in it), applied to what the retrieval record stores. */
  scrubJson?: ((value: unknown) => unknown) | undefined;
  /** Optional second opinion on detected conflicts (e.g. an LLM judge). Without it the heuristic rules decide. */
  conflictJudge?: ConflictJudge | undefined;
  /** Conflict strategies per predicate (engine config `facts`): multi-valued predicates never conflict. */
  factPolicy?: FactPolicy | undefined;
}

/**
 * Every signal that went into an item's score; null where the signal did not apply. The named parts after the
 * weighted sum (the lifts: graph, superseded, corrected, situation, findings) are listed once, in lifts.ts:
 * final = (weighted signals + outcome) · kind boost + the lifts.
 */
export interface ScoreBreakdown extends ScoreLifts {
  /** Normalised vector evidence in 0..1 (see fuse.ts). */
  vector: number | null;
  /** Normalised lexical evidence in 0..1 (see fuse.ts). */
  lexical: number | null;
  /** Fused relevance in 0..1. */
  relevance: number | null;
  recency: number | null;
  importance: number | null;
  confidence: number | null;
  /** Reranker score normalised to 0..1 within its call. */
  rerank: number | null;
  /** Episodes: the outcome bonus added to the score (see outcome.ts); absent or null for other kinds. */
  outcome?: number | null | undefined;
  final: number;
  /**
   * Present (true) when the query met the relevance floor only weakly (floor.ts): no memory shares a word with it or
   * comes close, and the context holds a few of the best, each marked, instead of nothing.
   */
  weak?: boolean | undefined;
}

export type RetrievalMode = 'hybrid' | 'vector' | 'lexical';

export interface SearchRequest {
  tenant: string;
  scope?: ScopeFilter | undefined;
  query: string;
  /** How many hits. A larger k only adds hits after the ones a smaller k returns (same query, same data). */
  k: number;
  kinds?: DocKind[] | undefined;
  filter?: FilterNode | undefined;
  mode?: RetrievalMode | undefined;
  rerank?: boolean | undefined;
  /** The conversation steps of hybrid search and the question discount of every mode (defaults: the context config's). */
  conversation?: ConversationConfig | undefined;
  /** How the scope's user, agent and session read (docs/scopes.md); default 'layered'. */
  scopeMode?: ScopeMode | undefined;
  /** Valid time and transaction time to read at (time-travel.ts). */
  asOf?: number | undefined;
  knownAt?: number | undefined;
}

export interface SearchHit {
  /** No `docId` for a session neighbour joined from the timeline (see expand.ts); it is storage-internal anyway. */
  doc: ReadDoc;
  score: number;
  scores: ScoreBreakdown;
  /** The reader's layer the memory is in (docs/scopes.md). */
  layer: Layer;
}

export interface ContextRequest {
  tenant: string;
  scope?: ScopeFilter | undefined;
  query: string;
  config: ContextConfig;
}

/** A document as the read path sees it; window events have no docId (they come from the timeline). */
export type ReadDoc = NewDoc & { docId?: number | undefined };

export type CandidateOrigin = 'window' | 'semantic';

/** The working record of one memory on its way into the context. */
export interface Candidate<D extends ReadDoc = ReadDoc> {
  doc: D;
  origin: CandidateOrigin;
  /** The timeline event behind an event doc (tool/args/result rendering, conflict checks). */
  event?: MemoryEvent | undefined;
  /** The fact behind a fact doc (subject/predicate/value and key, for conflict checks). */
  fact?: Fact | undefined;
  /** The episode behind an episode doc (outcome label, corrections) and the links touching it. */
  episode?: Episode | undefined;
  links?: Link[] | undefined;
  /** The reader's layer the memory is in (docs/scopes.md); set before rendering. */
  layer?: Layer | undefined;
  /** Whether the provenance tag leads with the layer (the reader named who is asking). */
  layerShown?: boolean | undefined;
  /** 'hop': joined as a graph neighbour of a retrieved episode; 'counter_example': the reserved slot. */
  role?: 'hop' | 'counter_example' | undefined;
  /** A closed episode that is the first-ranked case of a cause seen in this many candidate cases (recurrence.ts). */
  cases?: number | undefined;
  /** Session spread (session-spread.ts): an event past its session's first few for a gathering question; picked and shown after the others. */
  behind?: boolean | undefined;
  /** getContext: found only past the calibration head by every signal (pool.ts), picked only for the slots the head leaves. */
  deep?: boolean | undefined;
  /** getContext: the order in which MMR picked the item (0 first); past CONTEXT_HEAD_TOP_K picks, sections show items in it. */
  pick?: number | undefined;
  /** A closed case whose later statement replaced the answer of these earlier cases (supersede.ts), left out, with the learned rules drawn only from them. */
  replaced?: { ids: string[]; statement: string; rules?: string[] | undefined } | undefined;
  /** The closest closed case, a correction, that overturned the cause of these earlier cases for this query (overturned.ts), left out, with the learned rules drawn only from them. */
  overturned?: { ids: string[]; correction: string; rules?: string[] | undefined } | undefined;
  scores: ScoreBreakdown;
}

export interface Provenance {
  source: string | null;
  section: string | null;
  /** ISO-8601. */
  ts: string;
  type: string | null;
  actor: string | null;
  taskId: string | null;
  sessionId: string | null;
  tags: string[];
  contentHash: string;
}

/** What an episode item carries beyond its text: how it went and what was learned (issue B). */
export interface EpisodeView {
  outcome: Outcome;
  outcomeDetails: string | null;
  summary: string;
  rootCause: string | null;
  decisions: string[];
  assumptions: string[];
  corrections: string[];
  stateLabel: string | null;
  /** Typed links touching the episode, e.g. `{ type: 'LEARNED_FROM', direction: 'in', otherId }`. */
  links: { type: LinkType; direction: 'out' | 'in'; otherId: string; weight: number }[];
  /** Its cause recurred: how many of the cases similar to the query (this one included) say it (recurrence.ts). */
  recurringCases?: number | undefined;
}

/** What a fact item carries beyond its text: how much to trust it. */
export interface FactView {
  key: string;
  version: number;
  confidence: number;
  supportCount: number;
  contradictCount: number;
  kind: Fact['kind'];
}

export interface ContextItem {
  /** The record id (event, fact, episode …), i.e. `doc.refId`. */
  id: string;
  kind: DocKind;
  section: string;
  /** The reader's layer the memory is in: its session, its user, its agent or shared (docs/scopes.md). */
  layer?: Layer | undefined;
  /** The text as rendered (possibly truncated). */
  text: string;
  truncated: boolean;
  provenance: Provenance;
  scores: ScoreBreakdown;
  /** Present on episode items. */
  episode?: EpisodeView | undefined;
  /** Present on fact items. */
  fact?: FactView | undefined;
}

/** A causal narrative through the episode graph, e.g. incident → investigation → failed fix → correction. */
export interface CausalChain {
  episodeIds: string[];
  /** One line per step: `summary [outcome]`, joined with " → " in `narrative`. */
  steps: { episodeId: string; label: string; outcome: Outcome; via: LinkType | null }[];
  narrative: string;
}

export type ConflictReason = 'same_key' | 'same_subject_predicate' | 'fresher_episodic' | 'superseded_case';
export type ConflictAction = 'preferred' | 'surfaced_both';

export interface ConflictNote {
  reason: ConflictReason;
  action: ConflictAction;
  /** Record ids involved; the first is the one preferred (or the fresher when both are kept). */
  itemIds: string[];
  /** Ids removed from the context by the resolution (the stale side), empty when both are kept. */
  droppedIds: string[];
  /** A short, human-readable resolution note; rendered under "## Conflicts". */
  note: string;
}

export interface ContextSection {
  name: string;
  itemIds: string[];
}

export interface ContextResult {
  retrievalId: string;
  query: string;
  route: QueryRoute;
  items: ContextItem[];
  conflicts: ConflictNote[];
  sections: ContextSection[];
  tokens: { used: number; budget: number };
  /** Eligible items left out because they did not fit the token budget. */
  dropped: number;
  /** With `explain: true`: candidates considered but left out, with the reason (explain.ts); best first. */
  droppedItems?: DroppedItem[] | undefined;
  text: string;
  /** Causal chains through the retrieved episodes (issue B); empty when none. */
  causalChains?: CausalChain[] | undefined;
  /**
   * The best retrieved episode whose outcome differs from the majority of those selected (a success among
   * failures, or the reverse); reserved a place in the budget so it is never crowded out.
   */
  counterExampleId?: string | undefined;
  /** Relations around the entities the query names, as shown in the "Entities" section (knowledge graph). */
  entities?: GraphHitView[] | undefined;
}

export type QueryRoute = 'recall' | 'execute' | 'general';

export type { ContextConfig };
