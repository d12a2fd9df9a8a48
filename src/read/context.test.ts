import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseContextConfig, parseEngramConfig, type ContextConfigInput } from '../core/config.js';
import { createScrubber } from '../write/scrub.js';
import { isEngramError } from '../core/errors.js';
import type { Embedder } from '../ports/embedder.js';
import { buildContext } from './context.js';
import { embedWith, indexPending, newEvent, openTestStore, putFacts, readDeps, realEmbedder, type TestStore } from './e2e.test-support.js';
import type { ReadDeps } from './types.js';

const at = (hhmm: string) => Date.parse(`2025-09-20T${hhmm}Z`);
const NOW = at('18:30:00');
const DAY = 86_400_000;
const TASK = 'deploy_2025_09_20';

/** Seed 000's hybrid memory config, as written in the article. */
const SEED_CONFIG: ContextConfigInput = {
  task_id: TASK,
  episodic_window: { mode: 'last_n_events', n: 5, since_minutes: null, filters: { session_id: 'sess_7' } },
  semantic_retrieval: {
    top_k: 5,
    filters: { tags: ['policy', 'prod_v3'], pii: false },
    reranker: { enabled: true, model: 'cross_encoder_mini' },
  },
  merge_policy: { dedupe: 'source+hash', priority: ['episodic_recent', 'semantic_policy'], token_budget: 3000 },
  guardrails: { provenance_inline: true, pii_scrub_at_ingest: true, episodic_ttl_days: 30, semantic_cache_ttl_hours: 24 },
  conflict_resolution: 'prefer_fresh_episodic_else_surface_both_with_note',
};

const QUERY = 'The payments rollout is failing, how do I roll back safely?';
const POLICY = ['policy', 'prod_v3'];

describe('buildContext (SQLite + USE-lite)', () => {
  let embedder: Embedder;
  let store: TestStore;
  let deps: ReadDeps;
  let ids: Record<string, string>;

  beforeAll(async () => {
    embedder = await realEmbedder();
  });
  afterAll(async () => {
    await embedder.close();
  });

  beforeEach(async () => {
    store = await openTestStore(embedder.model, embedder.dimension);
    const s7 = { tenant: 't1', taskId: TASK, sessionId: 'sess_7' };
    const events = [
      newEvent({ ...s7, id: 'evt_old', content: 'Payments v1 deployed long ago.', ts: NOW - 40 * DAY }),
      newEvent({ ...s7, id: 'evt_1', type: 'message', actor: 'user', content: 'Roll out payments v3 to prod.', ts: at('18:00:00') }),
      newEvent({ ...s7, id: 'evt_2', type: 'tool_call', actor: 'agent', content: 'kubectl apply payments', tool: 'kubectl', args: { ns: 'payments', action: 'apply' }, result: { ok: true }, ts: at('18:05:00') }),
      newEvent({ ...s7, id: 'evt_3', type: 'observation', actor: 'system', content: 'Error rate on payments rose to 4% after the rollout.', ts: at('18:10:00'), importance: 0.8 }),
      newEvent({ ...s7, id: 'evt_4', type: 'decision', content: 'Start rollback of payments to v2.', ts: at('18:15:00') }),
      newEvent({
        ...s7,
        id: 'evt_5',
        type: 'tool_call',
        content: 'kubectl rollout status payments',
        tool: 'kubectl',
        args: { ns: 'payments', action: 'rollout status' },
        result: { ok: true, msg: 'Deployment available' },
        ts: at('18:22:10'),
      }),
      newEvent({ ...s7, id: 'evt_6', type: 'correction', actor: 'user', content: 'The payments service no longer deploys with blue-green; it uses canary now.', ts: at('18:24:00') }),
      newEvent({ ...s7, id: 'evt_7', type: 'message', content: 'Rollback complete; payments error rate back to 0.1%.', ts: at('18:25:00') }),
      newEvent({ tenant: 't1', taskId: TASK, sessionId: 'sess_8', id: 'evt_other_session', content: 'Lunch order for the team.', ts: at('18:26:00') }),
      newEvent({ tenant: 't1', taskId: 'other_task', sessionId: 'sess_7', id: 'evt_other_task', content: 'Search reindex finished.', ts: at('18:27:00') }),
    ];
    await store.storage.appendEvents(events);
    const facts = await putFacts(store.storage, [
      { text: 'Rollback: run kubectl rollout undo for the deployment, then confirm with kubectl rollout status.', source: 'runbook.md', section: 'rollback', tags: POLICY, recordedAt: at('09:00:00') },
      { text: 'Production rollbacks need approval from the on-call lead before they start.', source: 'runbook.md', section: 'approvals', tags: POLICY, recordedAt: at('09:00:00') },
      { text: 'The payments service deploys with blue-green.', source: 'deploy-policy.md', tags: POLICY, subject: 'payments service', predicate: 'deploy strategy', value: 'blue-green', recordedAt: at('08:00:00') },
      { text: 'Rollbacks of prod v2 used helm rollback.', source: 'old-runbook.md', tags: ['policy'], recordedAt: at('08:00:00') },
      { text: 'Rollback contact: Jane Doe, +1 555 0100.', source: 'contacts.md', tags: POLICY, pii: true, recordedAt: at('08:00:00') },
    ]);
    ids = { rollback: facts[0]!.id, approvals: facts[1]!.id, strategy: facts[2]!.id, oldRunbook: facts[3]!.id, contact: facts[4]!.id };
    await indexPending(store.storage, embedder);
    deps = readDeps(store.storage, NOW, embedWith(embedder));
  });
  afterEach(async () => {
    await store.close();
  });

  it("runs seed 000's config as written: window, filtered policy memory, conflicts, provenance, budget, record", async () => {
    const config = parseContextConfig(SEED_CONFIG);
    const r = await buildContext(deps, { tenant: 't1', query: QUERY, config });

    // Episodic window: the last 5 events of sess_7 in this task, chronological.
    const recent = r.sections.find((s) => s.name === 'episodic_recent')!;
    expect(recent.itemIds).toEqual(['evt_3', 'evt_4', 'evt_5', 'evt_6', 'evt_7']);
    // Semantic memory: only live, non-PII facts carrying both tags.
    const semanticIds = r.items.filter((i) => i.kind === 'fact').map((i) => i.id);
    expect(semanticIds.length).toBeGreaterThan(0);
    expect(semanticIds).not.toContain(ids.oldRunbook);
    expect(semanticIds).not.toContain(ids.contact);
    for (const item of r.items.filter((i) => i.kind === 'fact')) {
      expect(item.section).toBe('semantic_policy');
      expect(item.provenance.tags).toEqual(expect.arrayContaining(POLICY));
      expect(item.scores.rerank).not.toBeNull();
      expect(item.scores.relevance).not.toBeNull();
    }
    expect(semanticIds).toContain(ids.rollback);

    // The newer correction clashes with a policy: both stay, with a note.
    expect(r.conflicts).toHaveLength(1);
    expect(r.conflicts[0]).toMatchObject({ reason: 'fresher_episodic', action: 'surfaced_both', itemIds: ['evt_6', ids.strategy] });
    expect(semanticIds).toContain(ids.strategy);

    // Rendered text: sections, tool call, provenance, conflicts.
    expect(r.text).toMatch(/^## Recent events \(task deploy_2025_09_20\)\n<memory>\n/);
    expect(r.text).toContain('- kubectl(ns=payments, action=rollout status) → ok=true, msg=Deployment available [tool_call · 2025-09-20 18:22Z]');
    expect(r.text).toContain('## Relevant memory: policy');
    expect(r.text).toContain('[runbook.md §rollback · 2025-09-20]');
    expect(r.text).toMatch(/## Conflicts\n<memory>\n- Newer event .*contradicts policy.*\n<\/memory>$/);
    expect(r.text.indexOf('Error rate on payments')).toBeLessThan(r.text.indexOf('Rollback complete'));

    // Budget is counted on the final text.
    expect(r.tokens.budget).toBe(3000);
    expect(r.tokens.used).toBe(deps.tokens.count(r.text));
    expect(r.dropped).toBe(0);

    // The retrieval record holds what was handed out, in order.
    const rec = await store.storage.getRetrieval('t1', r.retrievalId);
    expect(rec).toMatchObject({ query: QUERY, itemIds: r.items.map((i) => i.id), createdAt: NOW });
    expect(r.retrievalId).toMatch(/^ret_/);

    // Plain JSON all the way through.
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it('prefers a fresher episodic correction over a plain (non-policy) fact and says so', async () => {
    const [plain] = await putFacts(store.storage, [
      { text: 'The payments service deploys with blue-green releases.', tags: ['prod_v3', 'deploys'], subject: 'payments service', predicate: 'deploy strategy', value: 'blue-green', recordedAt: at('08:00:00') },
    ]);
    await indexPending(store.storage, embedder);
    // The plain fact restates the policy fact: near-duplicate dropping (mmr.ts) would keep only the policy one.
    const config = parseContextConfig({ ...SEED_CONFIG, semantic_retrieval: { top_k: 5, filters: { tags: ['prod_v3'] } }, diversity: { near_duplicate: { enabled: false } } });
    const r = await buildContext(deps, { tenant: 't1', query: 'how does the payments service deploy?', config });
    const note = r.conflicts.find((c) => c.itemIds.includes(plain!.id))!;
    expect(note).toMatchObject({ action: 'preferred', itemIds: ['evt_6', plain!.id], droppedIds: [plain!.id] });
    expect(r.items.map((i) => i.id)).not.toContain(plain!.id);
    expect(r.text).toContain('using the newer one');
  });

  it('keeps the rendered text within a tight budget, filling by priority', async () => {
    for (const budget of [1, 12, 40, 60, 90, 160]) {
      const config = parseContextConfig({ ...SEED_CONFIG, merge_policy: { ...SEED_CONFIG.merge_policy, token_budget: budget } });
      const r = await buildContext(deps, { tenant: 't1', query: QUERY, config });
      expect(deps.tokens.count(r.text)).toBeLessThanOrEqual(budget);
      expect(r.tokens).toEqual({ used: deps.tokens.count(r.text), budget });
      if (budget >= 60) expect(r.items[0]!.section).toBe('episodic_recent');
      if (budget <= 90) expect(r.dropped).toBeGreaterThan(0);
    }
  });

  it('applies the episodic TTL at read time to the window and to retrieved events', async () => {
    const config = parseContextConfig({
      ...SEED_CONFIG,
      episodic_window: { mode: 'since_minutes', since_minutes: 60 * 24 * 90, filters: { session_id: 'sess_7' } },
      semantic_retrieval: { top_k: 10, kinds: ['event'] },
      guardrails: { episodic_ttl_days: 30 },
    });
    const r = await buildContext(deps, { tenant: 't1', query: 'payments deployed long ago v1', config });
    expect(r.items.map((i) => i.id)).not.toContain('evt_old');
    const recent = r.sections.find((s) => s.name === 'episodic_recent')!;
    expect(recent.itemIds).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5', 'evt_6', 'evt_7']);
    const noTtl = await buildContext(deps, { tenant: 't1', query: 'payments deployed long ago v1', config: parseContextConfig({ ...SEED_CONFIG, guardrails: { episodic_ttl_days: null }, semantic_retrieval: { top_k: 10, kinds: ['event'] } }) });
    expect(noTtl.items.map((i) => i.id)).toContain('evt_old');
  });

  it('merges a window event that semantic search also finds into one item in the window section', async () => {
    const config = parseContextConfig({ ...SEED_CONFIG, semantic_retrieval: { top_k: 5, kinds: ['event'] } });
    const r = await buildContext(deps, { tenant: 't1', query: 'error rate on payments rose after the rollout', config });
    const hits = r.items.filter((i) => i.id === 'evt_3');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.section).toBe('episodic_recent');
    expect(hits[0]!.scores.lexical).toBeGreaterThan(0);
    expect(new Set(r.items.map((i) => i.id)).size).toBe(r.items.length);
  });

  it('still builds a context when the embedder is down (lexical only)', async () => {
    const down = { ...deps, embedQuery: async () => undefined };
    const r = await buildContext(down, { tenant: 't1', query: QUERY, config: parseContextConfig(SEED_CONFIG) });
    expect(r.items.some((i) => i.id === ids.rollback)).toBe(true);
    expect(r.items.every((i) => i.scores.vector === null)).toBe(true);
  });

  it('returns only the window for an empty query, and nothing at all with mode none', async () => {
    const r = await buildContext(deps, { tenant: 't1', query: '', config: parseContextConfig(SEED_CONFIG) });
    expect(r.items.map((i) => i.id)).toEqual(['evt_3', 'evt_4', 'evt_5', 'evt_6', 'evt_7']);
    const none = await buildContext(deps, {
      tenant: 't1',
      query: '',
      config: parseContextConfig({ ...SEED_CONFIG, episodic_window: { mode: 'none' } }),
    });
    expect(none).toMatchObject({ items: [], text: '', tokens: { used: 0 } });
  });

  it('diversifies semantic items with MMR over stored vectors', async () => {
    await putFacts(store.storage, [
      { text: 'Canary deploys send 5% of traffic to the new version first.', tags: ['mmr'], recordedAt: at('09:00:00') },
      { text: 'Canary deploys send 5 percent of traffic to the new version first.', tags: ['mmr'], recordedAt: at('09:00:00') },
      { text: 'Feature flags let us turn off a new code path without a deploy.', tags: ['mmr'], recordedAt: at('09:00:00') },
    ]);
    await indexPending(store.storage, embedder);
    const cfg = (lambda: number, nearDuplicates = false) =>
      parseContextConfig({
        episodic_window: { mode: 'none' },
        semantic_retrieval: { top_k: 2, filters: { tags: ['mmr'] }, reranker: { enabled: false } },
        diversity: { mmr_lambda: lambda, near_duplicate: { enabled: nearDuplicates } },
      });
    const q = 'how do canary deploys limit risk for a new version?';
    const pure = await buildContext(deps, { tenant: 't1', query: q, config: cfg(1) });
    expect(pure.items.map((i) => i.text).every((t) => t.startsWith('Canary'))).toBe(true);
    const diverse = await buildContext(deps, { tenant: 't1', query: q, config: cfg(0.3) });
    expect(diverse.items.map((i) => i.text)).toContain('Feature flags let us turn off a new code path without a deploy.');
    // The default drops the near-duplicate even at λ = 1.
    const deduped = await buildContext(deps, { tenant: 't1', query: q, config: cfg(1, true) });
    expect(deduped.items.filter((i) => i.text.startsWith('Canary'))).toHaveLength(1);
  });

  it('scrubs PII from the rendered context at read time when the guardrail is on', async () => {
    // Written straight to storage, so nothing scrubbed it at ingest.
    await putFacts(store.storage, [{ text: 'Escalate rollback failures to oncall-lead@example.com right away.', tags: POLICY, recordedAt: at('09:00:00') }]);
    await indexPending(store.storage, embedder);
    const scrubber = createScrubber(parseEngramConfig({}).pii);
    const scrubbing = { ...deps, scrubText: (t: string) => scrubber.scrub(t).text };
    const on = await buildContext(scrubbing, { tenant: 't1', query: 'who do we escalate rollback failures to?', config: parseContextConfig(SEED_CONFIG) });
    expect(on.text).toContain('Escalate rollback failures to');
    expect(on.text).not.toContain('oncall-lead@example.com');
    expect(on.items.map((i) => i.text).join(' ')).not.toContain('oncall-lead@example.com');
    const off = await buildContext(scrubbing, {
      tenant: 't1',
      query: 'who do we escalate rollback failures to?',
      config: parseContextConfig({ ...SEED_CONFIG, guardrails: { pii_scrub_at_ingest: false } }),
    });
    expect(off.text).toContain('oncall-lead@example.com');
  });

  it('rejects bad filters and windows with the failing path', async () => {
    const bad = parseContextConfig({ ...SEED_CONFIG, semantic_retrieval: { filters: { ts: { gte: 'not a date' } } } });
    const e1 = await buildContext(deps, { tenant: 't1', query: QUERY, config: bad }).catch((e: unknown) => e);
    expect(isEngramError(e1, 'VALIDATION')).toBe(true);
    expect((e1 as { issues: { path: string }[] }).issues[0]!.path).toBe('semantic_retrieval.filters.ts.gte');
    const noMinutes = parseContextConfig({ episodic_window: { mode: 'since_minutes' } });
    const e2 = await buildContext(deps, { tenant: 't1', query: QUERY, config: noMinutes }).catch((e: unknown) => e);
    expect((e2 as { issues: { path: string }[] }).issues[0]!.path).toBe('episodic_window.since_minutes');
  });
});
