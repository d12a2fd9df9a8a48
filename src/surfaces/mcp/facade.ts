/**
 * What the MCP server needs from the engine: a narrow slice of the `Memory` facade. `recordOutcome`,
 * `examples` and `working` are optional so the server runs on a facade that lacks them; their tools then
 * answer with a clear UNAVAILABLE tool error instead of failing to start.
 */
import type { Episode, Fact } from '../../core/types.js';
import type { ExamplesApi } from '../../learn/feedback/api.js';
import type { Memory } from '../../memory.js';
import type { WorkingMemoryApi } from '../../working/api.js';

export type McpMemory = Pick<Memory, 'logEvent' | 'remember' | 'search' | 'getContext' | 'getFact' | 'forget'> & {
  /** The reinforcement loop: reports how the answer built from a retrieval turned out. */
  recordOutcome?: Memory['recordOutcome'] | undefined;
  examples?: ExamplesApi | undefined;
  working?: WorkingMemoryApi | undefined;
  /** A user's live facts (the profile resource and the system prompt). */
  userFacts?: ((q: { tenant?: string | undefined; userId: string; limit: number }) => Promise<Fact[]>) | undefined;
  /** The knowledge graph (the reference memory server's tools and graph_search). */
  graph?: Memory['graph'] | undefined;
  /** Recent episodes, newest first (the episodes resource). */
  recentEpisodes?: ((q: { tenant?: string | undefined; userId?: string | undefined; sessionId?: string | undefined; limit: number }) => Promise<Episode[]>) | undefined;
};

/** Who the server acts for. The tenant comes from the transport (CLI flag, API key), never from tool input. */
export interface McpScope {
  tenant?: string | undefined;
  /** Defaults for tools that take `user_id` / `agent_id` / `session_id`; a tool argument overrides them. */
  userId?: string | undefined;
  agentId?: string | undefined;
  sessionId?: string | undefined;
}
