import { describe, expect, it } from 'vitest';
import { conversationSchema, DOMAINS, loadConversations, problems } from './fixtures.js';

const set = loadConversations();

describe('conversation set fixtures', () => {
  it('has at least 30 conversations over the four agent domains', () => {
    expect(set.length).toBeGreaterThanOrEqual(30);
    for (const d of DOMAINS) expect(set.filter((c) => c.domain === d).length, d).toBeGreaterThanOrEqual(7);
    expect(new Set(set.map((c) => c.id)).size).toBe(set.length);
    expect(new Set(set.map((c) => c.tenant)).size).toBe(set.length);
  });

  it('gives every tenant several users with several sessions, and shared documents', () => {
    for (const c of set) {
      const users = new Set(c.events.map((e) => e.user_id));
      expect(users.size, c.id).toBeGreaterThanOrEqual(2);
      const sessions = [...users].map((u) => new Set(c.events.filter((e) => e.user_id === u).map((e) => e.session_id)).size);
      expect(Math.max(...sessions), c.id).toBeGreaterThanOrEqual(2);
      expect(c.documents.length, c.id).toBeGreaterThanOrEqual(1);
    }
  });

  it('covers what the suite is for: changed facts, multi-valued facts, plain-text contradictions, tool calls, nonsense queries', () => {
    const forbidden = set.flatMap((c) => c.checkpoints.flatMap((cp) => cp.must_not_contain));
    expect(forbidden.filter((f) => f.reason === 'other_user').length).toBeGreaterThanOrEqual(60);
    expect(forbidden.filter((f) => f.reason === 'stale').length).toBeGreaterThanOrEqual(20);
    expect(forbidden.filter((f) => f.reason === 'irrelevant').length).toBeGreaterThanOrEqual(15);
    expect(set.filter((c) => c.events.some((e) => e.type === 'tool_call')).length).toBeGreaterThanOrEqual(8);
    // Plain-text contradictions: facts with neither subject nor predicate nor key that a later one contradicts.
    expect(set.filter((c) => c.facts.filter((f) => !f.subject && !f.key).length >= 2).length).toBeGreaterThanOrEqual(3);
    // Multi-valued facts: one user, one subject and predicate, several values.
    const multi = set.filter((c) => {
      const seen = new Map<string, Set<string>>();
      for (const f of c.facts) {
        if (!f.subject || !f.predicate || !f.value) continue;
        const k = `${f.user_id}|${f.subject}|${f.predicate}`;
        seen.set(k, (seen.get(k) ?? new Set()).add(f.value));
      }
      return c.checkpoints.some((cp) => cp.must_contain.length >= 2) && [...seen.values()].some((v) => v.size >= 2);
    });
    expect(multi.length).toBeGreaterThanOrEqual(5);
  });

  it('keeps every expectation honest (satisfiable, and forbidden items really someone else\'s, stale or off-session)', () => {
    expect(set.flatMap(problems)).toEqual([]);
  });

  it('the problem check catches a must_contain only another user could satisfy and an other_user item the caller owns', () => {
    const c = structuredClone(set[0]!);
    const cp = c.checkpoints[0]!;
    const other = c.events.find((e) => e.user_id !== cp.user_id)!;
    const own = c.events.find((e) => e.user_id === cp.user_id)!;
    cp.must_contain = [{ any: [[other.content]] }];
    cp.must_not_contain = [{ reason: 'other_user', any: [[own.content]] }];
    const found = problems(c);
    expect(found.some((p) => p.includes('must_contain') && p.includes('matches nothing the caller may see'))).toBe(true);
    expect(found.some((p) => p.includes('other_user') && p.includes('matches something the caller may see'))).toBe(true);
  });

  it('rejects a file with an unknown field or a tool call without its tool', () => {
    const c = structuredClone(set[0]!) as Record<string, unknown>;
    expect(conversationSchema.safeParse({ ...c, extra: 1 }).success).toBe(false);
    const events = [{ id: 'x', ts: '2025-01-01T00:00:00Z', user_id: 'u', session_id: 's', actor: 'agent', type: 'tool_call', content: 'did it' }];
    expect(conversationSchema.safeParse({ ...c, events }).success).toBe(false);
  });
});
