import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../../testing/memory-fixture.js';
import { isEngramError } from '../../core/errors.js';
import { allRoundEvents, MINUTE, T0, tickingClock } from './fixtures.test-support.js';

let tm: TestMemory | undefined;
afterEach(async () => {
  await tm?.cleanup();
  tm = undefined;
});

/** A successful multi-step fix: report → tool call → result → decisions → outcome. */
function certRound(service: string, start: number, sessionId: string): Record<string, unknown>[] {
  const s = { sessionId };
  return [
    { ...s, type: 'message', content: `TLS handshake failures on ${service}: the certificate expired overnight.`, ts: start },
    { ...s, type: 'tool_call', content: `openssl s_client -connect ${service}:443`, tool: 'openssl', ts: start + MINUTE },
    { ...s, type: 'tool_result', content: 'notAfter is yesterday; the chain is otherwise valid.', ts: start + 2 * MINUTE },
    { ...s, type: 'decision', content: 'Renew the certificate with certbot renew --force-renewal.', ts: start + 3 * MINUTE },
    { ...s, type: 'decision', content: 'Reload nginx so it serves the renewed certificate.', ts: start + 4 * MINUTE },
    { ...s, type: 'outcome', content: 'Outcome: success, handshakes work again.', metadata: { outcome: 'success' }, ts: start + 5 * MINUTE },
  ];
}

describe('consolidation, reflection, procedures and retention on SQLite', () => {
  it('distils heuristics when close-time extraction is off, and procedures from successful multi-step episodes', async () => {
    tm = await openTestMemory({ learn: { engine: { background: false, extractOnClose: false, reflect: false } } }, tickingClock());
    const { memory } = tm;
    await memory.logEvents([...allRoundEvents(), ...certRound('shop.example.net', T0 + 60 * MINUTE, 'tls-1'), ...certRound('api.example.net', T0 + 90 * MINUTE, 'tls-2')]);
    await memory.flush();
    expect((await memory.storage.listFacts({ tenant: 'default', now: Date.now() })).filter((f) => f.kind === 'heuristic')).toEqual([]);

    const report = await memory.learn.consolidate();
    expect(report.facts.created.length).toBeGreaterThan(0);
    const heuristics = (await memory.storage.listFacts({ tenant: 'default', now: Date.now() })).filter((f) => f.kind === 'heuristic');
    expect(heuristics.map((f) => f.id).sort()).toEqual(report.facts.created.map((u) => u.liveId).sort());
    expect(heuristics.every((f) => f.provenance.origin === 'extraction' && (f.provenance.episodeIds ?? []).length >= 2)).toBe(true);

    // The two certificate fixes share trigger and steps: one procedure, used twice.
    expect(report.procedures.created).toHaveLength(1);
    expect(report.procedures.reinforced).toHaveLength(1);
    const [proc] = await memory.procedures.list();
    expect(proc).toMatchObject({ successCount: 2, failureCount: 0 });
    expect(proc!.steps.join(' | ')).toContain('Renew the certificate');
    expect(proc!.sourceEpisodeIds).toHaveLength(2);
    // Consolidating again adds nothing new: each episode feeds procedures once.
    const again = await memory.learn.consolidate();
    expect(again.procedures).toEqual({ created: [], reinforced: [] });
    expect(again.facts.created).toEqual([]);

    const matches = await memory.procedures.findApplicable('TLS handshake errors on billing.example.net after the certificate expired');
    expect(matches[0]!.procedure.id).toBe(proc!.id);
    expect(await memory.procedures.findApplicable('Grafana dashboards show no data')).toEqual([]);
    const used = await memory.procedures.recordOutcome(proc!.id, false, 'certbot rate limit hit; used the manual DNS challenge');
    expect(used).toMatchObject({ successCount: 2, failureCount: 1 });
    expect(used.notes.at(-1)).toBe('certbot rate limit hit; used the manual DNS challenge');
    expect((await memory.procedures.list())[0]).toMatchObject({ failureCount: 1 });

    const put = await memory.procedures.put({ name: 'Rotate API keys', trigger: 'an API key leaked', steps: ['Revoke the key', 'Issue a new key'] });
    expect(put.id).toMatch(/^prc_/);
    const err = await memory.procedures.put({ name: 'x', trigger: 'y', steps: [] }).catch((e: unknown) => e);
    expect(isEngramError(err, 'VALIDATION')).toBe(true);
    expect((err as { issues: { path: string }[] }).issues[0]!.path).toBe('steps');
  });

  it('reflects when event importance adds up, writing insights that cite their evidence events', async () => {
    tm = await openTestMemory({ learn: { engine: { background: false }, reflection: { importanceThreshold: 6, minRecurrence: 2 } } }, tickingClock());
    const { memory } = tm;
    await memory.logEvents(allRoundEvents());
    await memory.flush();
    const insights = (await memory.storage.listFacts({ tenant: 'default', now: Date.now() })).filter((f) => f.kind === 'insight');
    expect(insights.length).toBeGreaterThan(0);
    const eventIds = new Set((await memory.fetchEvents({ limit: 100 })).map((e) => e.id));
    for (const f of insights) {
      expect(f.provenance.origin).toBe('reflection');
      expect(f.provenance.eventIds!.length).toBeGreaterThanOrEqual(2);
      expect(f.provenance.eventIds!.every((id) => eventIds.has(id))).toBe(true);
    }
    expect(insights.some((f) => /outcomes failed|Corrected 2 times/.test(f.text))).toBe(true);
  });

  it('retention (when enabled) forgets old unimportant events that a closed episode summarises, nothing else', async () => {
    const later = tickingClock(T0 + 40 * 86_400_000);
    tm = await openTestMemory({ learn: { engine: { background: false, reflect: false, retention: { enabled: true, minAgeDays: 30, maxImportance: 0.5 } } } }, later);
    const { memory } = tm;
    await memory.logEvents(allRoundEvents());
    // Unimportant but recent, in a still-open episode: neither old enough nor covered by a summary.
    await memory.logEvent({ sessionId: 'other', type: 'observation', content: 'Disk usage on the archive volume is 71%.' });
    await memory.flush();
    const before = await memory.fetchEvents({ limit: 100 });
    const episodes = await memory.learn.episodes({ closed: true });
    const covered = new Set(episodes.flatMap((e) => e.eventIds));
    const doomed = before.filter((e) => covered.has(e.id) && e.importance < 0.5).map((e) => e.id);
    expect(doomed.length).toBeGreaterThan(0);

    const report = await memory.learn.consolidate();
    expect(report.expired).toBe(doomed.length);
    const after = await memory.fetchEvents({ limit: 100 });
    expect(after.map((e) => e.id).sort()).toEqual(before.filter((e) => !doomed.includes(e.id)).map((e) => e.id).sort());
    expect(after.some((e) => e.content.startsWith('Disk usage'))).toBe(true);
    // The lesson survives in the episodes.
    const kept = await memory.learn.episodes({ closed: true });
    expect(kept.map((e) => e.summary)).toEqual(episodes.map((e) => e.summary));
  });

  it('keeps retention off by default', async () => {
    tm = await openTestMemory({ learn: { engine: { background: false, reflect: false } } }, tickingClock(T0 + 400 * 86_400_000));
    await tm.memory.logEvents(allRoundEvents());
    const report = await tm.memory.learn.consolidate();
    expect(report.expired).toBe(0);
    expect(report.segmented.closed).toBe(4);
    expect(await tm.memory.fetchEvents({ limit: 100 })).toHaveLength(allRoundEvents().length);
  });
});
