import { describe, expect, it } from 'vitest';
import type { ContextItem } from '../../../src/index.js';
import { fromText, precedentsFromContext } from './precedents.js';

const provenance = (taskId: string | null): ContextItem['provenance'] => ({
  source: null,
  section: null,
  ts: '2026-01-01T00:00:00.000Z',
  type: null,
  actor: null,
  taskId,
  sessionId: null,
  tags: [],
  contentHash: 'h',
});
const scores: ContextItem['scores'] = { vector: null, lexical: null, relevance: null, recency: null, importance: null, confidence: null, rerank: null, final: 1 };

function episodeItem(id: string, ep: Partial<NonNullable<ContextItem['episode']>>): ContextItem {
  return {
    id,
    kind: 'episode',
    section: 'semantic',
    text: ep.summary ?? '',
    truncated: false,
    provenance: provenance('round-2'),
    scores,
    episode: { outcome: 'UNKNOWN', outcomeDetails: null, summary: '', rootCause: null, decisions: [], assumptions: [], corrections: [], stateLabel: null, links: [], ...ep },
  };
}

function factItem(id: string, text: string, kind: 'heuristic' | 'chunk' = 'heuristic'): ContextItem {
  return {
    id,
    kind: 'fact',
    section: 'semantic',
    text,
    truncated: false,
    provenance: provenance(null),
    scores,
    fact: { key: `k-${id}`, version: 2, confidence: 0.7, supportCount: 4, contradictCount: 1, kind },
  };
}

describe('precedents from structured memory', () => {
  it('an episode gives situation, root cause, outcome, correction and the corrected-away assumption', () => {
    const [p] = precedentsFromContext({
      items: [
        episodeItem('eps_1', {
          outcome: 'FAILURE',
          summary: 'Thumbnails missing after upload. Outcome: FAILURE — root cause: scratch disk full.',
          rootCause: 'Scratch disk full, not a stuck worker',
          corrections: ['Was actually the scratch disk, not a stuck worker.'],
          assumptions: ['a stuck worker'],
        }),
      ],
    });
    expect(p).toMatchObject({
      id: 'eps_1',
      source: 'episode',
      cause: 'Scratch disk full',
      outcome: 'FAILURE',
      corrected: true,
      confidence: 1,
      support: 1,
    });
    expect(p!.situation).toContain('Thumbnails missing');
    expect(p!.mistaken).toEqual(expect.arrayContaining(['a stuck worker']));
    expect(p!.label).toContain('round-2');
    expect(p!.label).toContain('corrected');
  });

  it('an assumption is not a mistake unless a correction overruled it', () => {
    const [p] = precedentsFromContext({ items: [episodeItem('eps_2', { outcome: 'SUCCESS', rootCause: 'Expired certificate', assumptions: ['expired certificate'] })] });
    expect(p!.mistaken).toEqual([]);
    expect(p!.corrected).toBe(false);
  });

  it('an episode with no known cause is no precedent', () => {
    expect(precedentsFromContext({ items: [episodeItem('eps_3', { outcome: 'FAILURE', summary: 'Still investigating' })] })).toEqual([]);
  });

  it('a learned rule gives its condition, cause, the belief it rules out, confidence and support', () => {
    const [p] = precedentsFromContext({
      items: [factItem('fct_1', 'When a report mentions uploads and scratch, check the scratch disk filling up, not a stuck worker (seen in 3 episodes; corrected from a slow network in 2).')],
    });
    expect(p).toMatchObject({ source: 'fact', situation: 'a report mentions uploads and scratch', cause: 'the scratch disk filling up', confidence: 0.7, support: 4, corrected: true });
    expect(p!.mistaken).toEqual(['a stuck worker', 'a slow network']);
    expect(p!.label).toContain('v2');
  });

  it('document chunks and plain events go through the raw-text extraction', () => {
    const ps = precedentsFromContext({ items: [factItem('fct_2', 'Outcome: success. Root cause: expired signing key.', 'chunk'), factItem('fct_3', 'Runbook: restart nightly', 'chunk')] });
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ source: 'chunk', cause: 'expired signing key', outcome: 'SUCCESS', corrected: false });
  });
});

describe('precedents from raw text (the same cue parsing for every agent)', () => {
  it('reads "Outcome: … Root cause: …" lines', () => {
    expect(fromText('c1', 'chunk c1', 'Outcome: failure. Root cause: Bank API rate limit hit at 100 calls per minute.')).toMatchObject({
      cause: 'Bank API rate limit hit at 100 calls per minute',
      outcome: 'FAILURE',
      corrected: false,
    });
  });

  it('reads corrections: "was actually X, not Y" and "Not Y — … Root cause was X"', () => {
    expect(fromText('c2', 'chunk c2', 'Correction: Was actually the spool filling the disk, not a memory leak.')).toMatchObject({
      cause: 'the spool filling the disk',
      mistaken: ['a memory leak'],
      corrected: true,
      outcome: null,
    });
    expect(fromText('c3', 'chunk c3', 'Correction: Not the quota — it began with the flag flip. Root cause was malformed queries.')).toMatchObject({
      cause: 'malformed queries',
      mistaken: ['the quota'],
      corrected: true,
    });
  });

  it('keeps a cause whose own words contain "not" when no comma sets off a mistaken belief', () => {
    expect(fromText('c4', 'chunk c4', 'Root cause: cache TTL not set on the new keys.')!.cause).toBe('cache TTL not set on the new keys');
  });

  it('a chunk that names no cause is no precedent', () => {
    expect(fromText('c5', 'chunk c5', 'Checked the dashboards; CPU is fine.')).toBeUndefined();
  });

  it('a sentence with a "not" in it is no correction unless shaped like one', () => {
    expect(fromText('c6', 'chunk c6', 'Verification texts arrive late or not at all.')).toBeUndefined();
    expect(fromText('c7', 'chunk c7', 'The spool filled the disk, not a memory leak.')).toMatchObject({ cause: 'The spool filled the disk', mistaken: ['a memory leak'] });
  });

  it('a correction that merely names a worker or a helper carries no outcome', () => {
    expect(fromText('c8', 'chunk c8', 'Correction: Was actually a full scratch volume, not a stuck worker.')).toMatchObject({ outcome: null, corrected: true });
  });
});
