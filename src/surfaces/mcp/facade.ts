/**
 * What the MCP server needs from the engine: a narrow slice of the `Memory` facade. `recordOutcome`,
 * `examples` and `working` are optional so the server runs on a facade that lacks them; their tools then
 * answer with a clear UNAVAILABLE tool error instead of failing to start.
 */
import type { ExamplesApi } from '../../learn/feedback/api.js';
import type { Memory } from '../../memory.js';
import type { WorkingMemoryApi } from '../../working/api.js';

export type McpMemory = Pick<Memory, 'logEvent' | 'remember' | 'search' | 'getContext' | 'getFact' | 'forget'> & {
  /** The reinforcement loop: reports how the answer built from a retrieval turned out. */
  recordOutcome?: Memory['recordOutcome'] | undefined;
  examples?: ExamplesApi | undefined;
  working?: WorkingMemoryApi | undefined;
};

/** Who the server acts for. The tenant comes from the transport (CLI flag, API key), never from tool input. */
export interface McpScope {
  tenant?: string | undefined;
  /** Defaults for tools that take `user_id` / `agent_id` / `session_id`; a tool argument overrides them. */
  userId?: string | undefined;
  agentId?: string | undefined;
  sessionId?: string | undefined;
}
