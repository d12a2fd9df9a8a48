/**
 * forget --user and working memory. A scratchpad belongs to a session, not to a user (its record has no user
 * column), so storage's scope delete cannot find it by user. The user's sessions are the sessions of their
 * events and facts, and those whose scratchpad names the user among its writers (`userIds`, written when a
 * session ref carries `userId`): their scratchpads are deleted with them. A session two users shared loses its
 * scratchpad as well — erasing the subject wins over keeping a shared note. Found before the records go,
 * deleted after.
 */
import type { ScopeFilter, Storage } from './ports/storage.js';

const PAGE = 10_000;

/** Sessions of the records a user-scoped forget will delete (none when the scope names no user). */
export async function sessionsToForget(storage: Storage, tenant: string, scope: ScopeFilter | undefined): Promise<string[]> {
  if (scope?.userId === undefined) return [];
  const sessions = new Set<string>();
  if (scope.sessionId !== undefined) sessions.add(scope.sessionId);
  for (let afterSeq = 0; ; ) {
    const page = await storage.queryEvents({ tenant, scope, afterSeq, limit: PAGE, now: 0 });
    for (const e of page) if (e.sessionId) sessions.add(e.sessionId);
    if (page.length < PAGE) break;
    afterSeq = page.at(-1)!.seq;
  }
  for (const f of await storage.listFacts({ tenant, scope, includeExpired: true, now: 0 })) if (f.sessionId) sessions.add(f.sessionId);
  // A scratchpad carries no agent or task: it is the user's when the scope names only the user (and a session).
  if (scope.agentId === undefined && scope.taskId === undefined) {
    let after: string | undefined;
    do {
      const page = await storage.listBackupPage('working_memory', tenant, after, 500);
      for (const w of page.records) {
        const writers = w.state.userIds;
        if (Array.isArray(writers) && writers.includes(scope.userId) && (scope.sessionId === undefined || w.sessionId === scope.sessionId)) sessions.add(w.sessionId);
      }
      after = page.next;
    } while (after !== undefined);
  }
  return [...sessions];
}

/** Deletes the scratchpads of `sessions`; returns how many existed. */
export async function forgetWorkingMemories(storage: Storage, tenant: string, sessions: readonly string[]): Promise<number> {
  let n = 0;
  for (const s of sessions) if (await storage.deleteWorkingMemory(tenant, s)) n++;
  return n;
}
