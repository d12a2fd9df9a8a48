/**
 * Test support (not a test): a synthetic incident log of a fictional storefront, written for these tests.
 * Three incidents share one cause (an HTTP client's per-host connection cap under peak traffic), two look
 * similar but were caused by a release (the agent assumed the connection cap and was corrected), and one is
 * unrelated. Every round runs report → notes → attempted fix → outcome → (correction), all in one state.
 */
import type { EventType, MemoryEvent } from '../core/types.js';

export interface Round {
  service: string;
  report: string;
  notes: string[];
  attempt: string;
  outcome: 'success' | 'failure';
  rootCause: string;
  assumption?: string;
  correction?: string;
}

export const ROUNDS: readonly Round[] = [
  {
    service: 'checkout-api',
    report: 'Checkout API returning 503s for a third of requests during the evening flash sale traffic peak.',
    notes: [
      'Worker threads are all blocked waiting on outbound HTTP calls.',
      'Payment provider dashboard shows normal response times.',
      'Heap usage climbs slowly but stays under the limit.',
    ],
    attempt: 'Restarted the checkout pods, assuming a memory leak.',
    outcome: 'failure',
    rootCause: 'Outbound HTTP client hit its max connections per host under peak traffic.',
    assumption: 'a memory leak in the checkout pods',
    correction: 'Was actually the outbound HTTP client connection cap, not a memory leak.',
  },
  {
    service: 'pricing-service',
    report: 'Pricing lookups time out and p95 latency jumps to 6s during the traffic peak.',
    notes: ['Requests to the rates API queue inside the HTTP client.', 'Rates API itself answers in 40ms.'],
    attempt: 'Raised max connections per host on the rates HTTP client from 10 to 100.',
    outcome: 'success',
    rootCause: 'HTTP client max connections per host exhausted under peak traffic.',
  },
  {
    service: 'catalog-service',
    report: 'Catalog pages returning 503s and timing out right after the 4.2 release; traffic is flat.',
    notes: ['Outbound HTTP connection counts are well below the cap.', 'Slow queries hit a read replica that was just added.'],
    attempt: 'Raised max connections per host on the catalog HTTP client.',
    outcome: 'failure',
    rootCause: 'The 4.2 release enabled a feature flag that routed reads to a cold replica.',
    assumption: 'the HTTP client connection cap',
    correction: 'Not the connection cap: errors began at the release and traffic was flat; a feature flag routed reads to a cold replica.',
  },
  {
    service: 'search-gateway',
    report: 'Search gateway requests stall and return 503s while the nightly reindex drives peak traffic.',
    notes: ['Thread dump shows threads parked waiting for a pooled HTTP connection.', 'Search cluster health is green.'],
    attempt: 'Increased max connections per host for the search HTTP client.',
    outcome: 'success',
    rootCause: 'Search HTTP client ran out of connections per host under peak traffic.',
  },
  {
    service: 'image-service',
    report: 'Product thumbnails stopped rendering after the CDN account switch.',
    notes: ['Browser console shows 403 responses from the CDN origin.'],
    attempt: 'Rotated the URL signing key to the new CDN account.',
    outcome: 'success',
    rootCause: 'URL signing key still belonged to the old CDN account.',
  },
  {
    service: 'orders-service',
    report: 'Order writes failing with timeouts right after the 5.0 release went out; traffic unchanged.',
    notes: ['HTTP client connection counts look normal.', 'Database shows lock waits on the orders table since the release.'],
    attempt: 'Raised max connections per host on the orders HTTP client.',
    outcome: 'failure',
    rootCause: 'The 5.0 release ran a schema change that locked the orders table.',
    assumption: 'the HTTP client connection cap',
    correction: 'Not the connection cap — failures started at the release with traffic unchanged; a schema change locked the orders table.',
  },
];

export const T0 = Date.UTC(2025, 4, 12, 9, 0, 0);
const MINUTE = 60_000;

export interface EventOverrides {
  stateLabel?: string;
  tenant?: string;
  sessionId?: string;
}

/** A full MemoryEvent with deterministic ids, seqs and times. */
export function makeEvent(
  seq: number,
  type: EventType,
  content: string,
  ts: number,
  extra: Partial<MemoryEvent> = {},
): MemoryEvent {
  return {
    id: `evt_${String(seq).padStart(4, '0')}`,
    seq,
    ts,
    recordedAt: ts,
    tenant: 'acme',
    sessionId: 'oncall-1',
    type,
    actor: type === 'decision' || type === 'tool_call' ? 'agent' : type === 'correction' ? 'user' : 'system',
    content,
    tags: [],
    importance: 0.5,
    metadata: {},
    contentHash: `h${seq}`,
    pii: { scrubbed: false, counts: {} },
    ...extra,
  };
}

/** The events of one round, the way an agent would log them. */
export function roundEvents(round: Round, firstSeq: number, startTs: number, over: EventOverrides = {}): MemoryEvent[] {
  const state = { stateLabel: over.stateLabel ?? 'incident', ...(over.tenant ? { tenant: over.tenant } : {}), ...(over.sessionId ? { sessionId: over.sessionId } : {}) };
  const steps: Array<[EventType, string]> = [
    ['message', round.report],
    ...round.notes.map((n): [EventType, string] => ['observation', n]),
    ['decision', round.attempt],
    ['outcome', `Outcome: ${round.outcome}. Root cause: ${round.rootCause}`],
    ...(round.correction ? [['correction', `Correction: ${round.correction}`] as [EventType, string]] : []),
  ];
  return steps.map(([type, content], i) => makeEvent(firstSeq + i, type, content, startTs + i * 2 * MINUTE, state));
}

/** All rounds back to back (5 minutes between rounds: no time gap, one state label). */
export function incidentStream(rounds: readonly Round[] = ROUNDS, over: EventOverrides = {}): { events: MemoryEvent[]; perRound: MemoryEvent[][] } {
  const perRound: MemoryEvent[][] = [];
  let seq = 1;
  let ts = T0;
  for (const r of rounds) {
    const evs = roundEvents(r, seq, ts, over);
    perRound.push(evs);
    seq += evs.length;
    ts = evs.at(-1)!.ts + 5 * MINUTE;
  }
  return { events: perRound.flat(), perRound };
}
