/**
 * Synthetic but realistic agent memories for benchmarks: tool calls, observations, decisions, chat turns
 * and facts about services, people and incidents, from templates with enough slots that texts are distinct.
 * Deterministic for a seed. Shared by `npm run bench:perf --` and `bench/core.ts`.
 */
import type { EventInput, FactInput } from '../../src/index.js';
import { rng } from '../lib/rng.js';

export { rng };

const services = ['payments', 'checkout', 'search', 'auth', 'inventory', 'notifications', 'billing', 'gateway', 'orders', 'reports', 'media', 'profiles'];
const people = ['Alice', 'Bruno', 'Chen', 'Dana', 'Emeka', 'Farah', 'Goran', 'Hana', 'Ivan', 'Jia', 'Kofi', 'Lena'];
const tools = ['kubectl', 'psql', 'redis-cli', 'curl', 'terraform', 'git', 'helm', 'aws'];
export const symptoms = ['p99 latency doubled', 'error rate above 2%', 'pods restarting in a loop', 'queue depth growing', 'timeouts on the upstream call', 'memory climbing steadily', 'disk almost full', 'CPU pinned at 100%', 'stale cache entries', 'TLS handshake failures'];
export const causes = ['connection pool exhaustion', 'a missing database index', 'a bad config push', 'an expired certificate', 'a memory leak in the worker', 'a retry storm', 'noisy neighbour on the node', 'a schema mismatch after migration', 'DNS resolution delays', 'an overloaded replica'];
const actions = ['rolled back the release', 'raised the pool size', 'added the missing index', 'rotated the certificate', 'restarted the workers', 'scaled the deployment out', 'throttled the batch job', 'flushed the cache', 'pinned the previous image', 'opened an incident'];
const topics = ['the quarterly roadmap', 'on-call handover', 'the pricing change', 'the data retention policy', 'the new onboarding flow', 'the vendor contract', 'the hiring plan', 'the latency budget'];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** One synthetic text with its template family (texts of a family are about the same thing). */
export function synthText(r: () => number, i: number): { text: string; family: string } {
  const svc = pick(r, services);
  const n = 1 + Math.floor(r() * 500);
  switch (i % 6) {
    case 0: {
      const s = pick(r, symptoms);
      return { text: `${svc} service: ${s} since deploy #${n}; investigating.`, family: `symptom:${s}` };
    }
    case 1: {
      const c = pick(r, causes);
      return { text: `Root cause for the ${svc} incident ${n} was ${c}.`, family: `cause:${c}` };
    }
    case 2: {
      const a = pick(r, actions);
      return { text: `On ${svc} we ${a} (ticket OPS-${n}) and the alerts cleared.`, family: `action:${a}` };
    }
    case 3: {
      const p = pick(r, people);
      const t = pick(r, topics);
      return { text: `${p} asked for a summary of ${t} before the review on day ${n}.`, family: `topic:${t}` };
    }
    case 4: {
      const tool = pick(r, tools);
      return { text: `${tool} ${svc} status --env prod-${n % 7} returned ok with ${n} items.`, family: `tool:${tool}` };
    }
    default: {
      const p = pick(r, people);
      return { text: `${p} prefers ${pick(r, ['short', 'detailed', 'bullet-point', 'written'])} updates about ${svc} (note ${n}).`, family: `pref:${p}` };
    }
  }
}

const TYPES = ['observation', 'note', 'decision', 'message', 'tool_call', 'message'] as const;

export function synthEvents(count: number, seed: number, start = Date.parse('2025-01-01T00:00:00Z')): (EventInput & { family: string })[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const { text, family } = synthText(r, i);
    return {
      family,
      type: TYPES[i % TYPES.length]!,
      content: text,
      taskId: `task-${Math.floor(i / 50)}`,
      sessionId: `sess-${Math.floor(i / 200)}`,
      ts: start + i * 60_000,
      tags: [pick(r, services)],
    };
  });
}

export function synthFacts(count: number, seed: number): (FactInput & { family: string })[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const { text, family } = synthText(r, i);
    return { family, text, source: `kb-${i % 40}.md`, section: `s${i % 9}`, tags: ['kb'] };
  });
}

/** Queries in the voice of an agent, about the same families. */
export function synthQueries(count: number, seed: number): string[] {
  const r = rng(seed);
  const forms = [
    (s: string) => `what happened last time ${s} was seen on ${pick(r, services)}?`,
    (s: string) => `how did we fix ${s} before`,
    (s: string) => `any notes about ${s} for ${pick(r, services)}`,
  ];
  return Array.from({ length: count }, (_, i) => {
    const subject = i % 2 === 0 ? pick(r, symptoms) : pick(r, causes);
    return `${pick(r, forms)(subject)} (q${i})`;
  });
}
