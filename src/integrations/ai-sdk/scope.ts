/** Who the AI SDK integration reads and writes as: one Engram tenant and scope per app user / agent / session. */
import type { Memory } from '../../memory.js';

export interface EngramAiOptions {
  memory: Memory;
  tenant?: string;
  userId?: string;
  agentId?: string;
  sessionId?: string;
}

export function scopeOf(o: EngramAiOptions): { tenant?: string; userId?: string; agentId?: string; sessionId?: string } {
  return {
    ...(o.tenant ? { tenant: o.tenant } : {}),
    ...(o.userId ? { userId: o.userId } : {}),
    ...(o.agentId ? { agentId: o.agentId } : {}),
    ...(o.sessionId ? { sessionId: o.sessionId } : {}),
  };
}

/** The same scope in getContext's (seed 000's snake_case) form. */
export function contextScopeOf(o: EngramAiOptions): { user_id?: string; agent_id?: string; session_id?: string } | undefined {
  const s = {
    ...(o.userId ? { user_id: o.userId } : {}),
    ...(o.agentId ? { agent_id: o.agentId } : {}),
    ...(o.sessionId ? { session_id: o.sessionId } : {}),
  };
  return Object.keys(s).length > 0 ? s : undefined;
}
