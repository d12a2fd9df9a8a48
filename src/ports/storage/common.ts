/** What every storage sub-port shares: capabilities, lifecycle and the scope narrowing of reads. */
import type { Scope } from '../../core/types.js';

export interface StorageCapabilities {
  /** Vector search uses an approximate index above some size (results may differ slightly from exact). */
  ann: boolean;
  /** Several processes may write at once. */
  multiProcess: boolean;
}

/**
 * A caller's identity for a layered read (docs/scopes.md). A record is visible when it belongs to this user
 * (whatever its agent or session), or belongs to no user and is either shared tenant-wide (no agent, no
 * session), this agent's own (agent set, no session) or bound to this session. With no field set, every
 * record that no user owns is visible: an anonymous read never sees a user's memories.
 */
export interface Layers {
  userId?: string | undefined;
  agentId?: string | undefined;
  sessionId?: string | undefined;
}

/**
 * Narrowing inside a tenant. Every scope field present must match exactly; `layers`, when present, adds the
 * layered visibility rule above (both hold).
 */
export type ScopeFilter = Partial<Omit<Scope, 'tenant'>> & { layers?: Layers | undefined };

/** Opening, warming and closing; what every sub-port shares. */
export interface StorageLifecycle {
  readonly name: string;
  readonly capabilities: StorageCapabilities;

  /** Opens and migrates. `embeddingModel` selects which vectors search uses and which are pending. */
  init(opts: { embeddingModel: string; dimension: number }): Promise<void>;
  /**
   * Loads a tenant's in-process search indexes and finishes their background building now, so the first
   * searches are not the ones paying for it (servers at start, benchmarks before measuring). Adapters whose
   * engine holds the indexes leave it out.
   */
  warm?(tenant: string): Promise<void>;
  close(): Promise<void>;
}
