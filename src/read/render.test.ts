import { describe, expect, it } from 'vitest';
import { T0, candidate, eventCandidate, makeDoc, makeEvent } from './fixtures.test-support.js';
import { itemBody, provenanceTag, renderItems, renderText, type RenderSection } from './render.js';
import { resolveSections } from './sections.js';

const { specs } = resolveSections(['episodic_recent', 'semantic_policy'], { taskId: 'deploy_2025_09_20' });
const [recent, policy, semantic] = specs as [typeof specs[0], typeof specs[0], typeof specs[0]];

describe('itemBody', () => {
  it('renders a tool call as tool(args) → result', () => {
    const e = makeEvent({
      type: 'tool_call',
      content: 'kubectl rollout status',
      tool: 'kubectl',
      args: { ns: 'payments', action: 'rollout status' },
      result: { ok: true, msg: 'Deployment available' },
    });
    expect(itemBody(eventCandidate(e))).toBe('kubectl(ns=payments, action=rollout status) → ok=true, msg=Deployment available');
  });

  it("keeps the agent's own words before the compact tool line, once", () => {
    const e = makeEvent({
      type: 'tool_call',
      content: 'Updated session.test.ts to use SESSION_TTL_SECONDS',
      tool: 'edit',
      args: { file: 'src/auth/session.test.ts' },
      result: { ok: true },
    });
    expect(itemBody(eventCandidate(e))).toBe('Updated session.test.ts to use SESSION_TTL_SECONDS. edit(file=src/auth/session.test.ts) → ok=true');
  });

  it('uses the speaker name and flattens newlines for other events and docs', () => {
    expect(itemBody(eventCandidate(makeEvent({ name: 'Caroline', content: 'I went to\n  the support group.' })))).toBe(
      'Caroline: I went to the support group.',
    );
    expect(itemBody(candidate(makeDoc({ text: 'Line one.\nLine two.' })))).toBe('Line one. Line two.');
  });
});

describe('provenanceTag', () => {
  it('cites source, section and day for memory', () => {
    const c = candidate(makeDoc({ text: 'x', source: 'runbook.md', section: 'rollback', ts: Date.parse('2025-09-20T10:00:00Z') }));
    expect(provenanceTag(c)).toBe('[runbook.md §rollback · 2025-09-20]');
    expect(provenanceTag(candidate(makeDoc({ text: 'x', type: 'heuristic', ts: T0 })))).toBe('[fact:heuristic · 2025-09-20]');
  });

  it('cites type and minute for events', () => {
    const e = makeEvent({ type: 'tool_call', content: 'x', ts: Date.parse('2025-09-20T18:22:10Z') });
    expect(provenanceTag(eventCandidate(e))).toBe('[tool_call · 2025-09-20 18:22Z]');
  });
});

describe('renderText / renderItems', () => {
  const late = eventCandidate(makeEvent({ content: 'Rollback started.', ts: T0 + 60_000, seq: 2 }), { final: 0.9 });
  const early = eventCandidate(makeEvent({ content: 'Deploy failed.', ts: T0, seq: 1 }), { final: 0.4 });
  const rule = candidate(makeDoc({ text: 'Rollback needs on-call approval.', source: 'runbook.md', section: 'rollback', tags: ['policy'] }));
  const sections: RenderSection[] = [
    { spec: recent, entries: [late, early].map((c) => ({ candidate: c, body: itemBody(c), truncated: false })) },
    { spec: policy, entries: [{ candidate: rule, body: itemBody(rule), truncated: false }] },
    { spec: semantic, entries: [] },
  ];

  it('renders sections with titles, events chronologically, provenance inline, conflicts last', () => {
    const text = renderText(sections, ['Newer event contradicts fact; using the newer one.'], { provenanceInline: true });
    expect(text).toBe(
      [
        '## Recent events (task deploy_2025_09_20)',
        '<memory>',
        '- Deploy failed. [message · 2025-09-20 18:00Z]',
        '- Rollback started. [message · 2025-09-20 18:01Z]',
        '</memory>',
        '',
        '## Relevant memory: policy',
        '<memory>',
        '- Rollback needs on-call approval. [runbook.md §rollback · 2025-09-20]',
        '</memory>',
        '',
        '## Conflicts',
        '<memory>',
        '- Newer event contradicts fact; using the newer one.',
        '</memory>',
      ].join('\n'),
    );
  });

  it('leaves provenance out when disabled and renders nothing for an empty selection', () => {
    expect(renderText(sections, [], { provenanceInline: false })).not.toContain('[');
    expect(renderText([{ spec: semantic, entries: [] }], [], { provenanceInline: true })).toBe('');
  });

  it('returns JSON items in text order with provenance and scores', () => {
    const items = renderItems(sections);
    expect(items.map((i) => [i.id, i.section])).toEqual([
      [early.doc.refId, 'episodic_recent'],
      [late.doc.refId, 'episodic_recent'],
      [rule.doc.refId, 'semantic_policy'],
    ]);
    expect(items[2]!.provenance).toMatchObject({ source: 'runbook.md', section: 'rollback', tags: ['policy'], ts: new Date(T0).toISOString() });
    expect(JSON.parse(JSON.stringify(items))).toEqual(items);
  });
});

describe('resolveSections', () => {
  it('appends catch-all sections and reports unknown names', () => {
    const r = resolveSections(['semantic_policy', 'causal_chain'], {});
    expect(r.specs.map((s) => s.name)).toEqual(['semantic_policy', 'episodic_recent', 'semantic']);
    expect(r.unknown).toEqual(['causal_chain']);
    expect(r.specs[1]!.title).toBe('Recent events');
  });
});
