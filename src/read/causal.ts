/**
 * Causal narratives through the episodic graph: from an episode, walk its causal and temporal links (both
 * directions, a few hops) and tell the episodes reached in time order — "incident → investigation → failed
 * fix → correction". Each step says how it went and which link joins it to the story.
 */
import { idKind } from '../core/ids.js';
import type { Episode, Link, LinkType } from '../core/types.js';
import type { Storage } from '../ports/storage.js';
import type { CausalChain } from './types.js';

/** Links that carry a story. CONTRADICTED joins episodes to facts, not episodes to each other. */
export const CHAIN_LINK_TYPES: readonly LinkType[] = ['CAUSED_BY', 'LED_TO', 'RETRY_OF', 'LEARNED_FROM', 'CONTINUATION'];

export interface ChainOptions {
  maxDepth?: number;
  /** Episodes in one chain at most (the start and those nearest to it). */
  maxSteps?: number;
}

const LABEL_CHARS = 90;

function clipText(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).replace(/[\s,;:.—–-]+$/, '')}…`;
}

/** "<situation> [FAILURE, corrected]" — what the episode was about and how it went. */
export function stepLabel(e: Episode): string {
  const situation = typeof e.metadata.situation === 'string' ? e.metadata.situation : undefined;
  const headline = clipText(situation ?? e.summary ?? e.id, LABEL_CHARS);
  const how = [e.outcome, ...(e.corrections.length ? ['corrected'] : [])].join(', ');
  return `${headline} [${how}]`;
}

/** The chain through one episode, or undefined when it has no linked episode. */
export async function causalChain(storage: Storage, tenant: string, episodeId: string, opts: ChainOptions = {}): Promise<CausalChain | undefined> {
  const maxDepth = opts.maxDepth ?? 3;
  const maxSteps = opts.maxSteps ?? 8;
  const hops = await storage.traverse({ tenant, ids: [episodeId], direction: 'both', types: [...CHAIN_LINK_TYPES], maxDepth, limit: 128 });
  const depth = new Map<string, number>([[episodeId, 0]]);
  const links: Link[] = [];
  for (const { link, depth: d } of hops) {
    if (idKind(link.fromId) !== 'episode' || idKind(link.toId) !== 'episode') continue;
    links.push(link);
    for (const end of [link.fromId, link.toId]) if (!depth.has(end)) depth.set(end, d);
  }
  if (depth.size < 2) return undefined;
  const nearest = [...depth].sort((a, b) => a[1] - b[1]).slice(0, maxSteps).map(([id]) => id);
  const episodes = await storage.getEpisodes(tenant, nearest);
  if (episodes.length < 2) return undefined;
  return narrate(episodes, links);
}

/**
 * Orders episodes in time and names, for each, the link that ties it into the story: to the nearest earlier
 * step, else to the nearest later one (null only when its link leads to a step cut by `maxSteps`).
 */
export function narrate(episodes: readonly Episode[], links: readonly Link[]): CausalChain {
  const ordered = [...episodes].sort((a, b) => a.startTs - b.startTs || a.startSeq - b.startSeq);
  const steps = ordered.map((e, i) => {
    const others = [...ordered.slice(0, i).reverse(), ...ordered.slice(i + 1)];
    let via: LinkType | null = null;
    for (const prev of others) {
      const l = links.find((x) => (x.fromId === e.id && x.toId === prev.id) || (x.fromId === prev.id && x.toId === e.id));
      if (l) {
        via = l.type;
        break;
      }
    }
    return { episodeId: e.id, label: stepLabel(e), outcome: e.outcome, via };
  });
  return { episodeIds: steps.map((s) => s.episodeId), steps, narrative: steps.map((s) => s.label).join(' → ') };
}

/** Chains through several episodes, without repeats (a chain already told through another start is skipped). */
export async function chainsFor(storage: Storage, tenant: string, episodeIds: readonly string[], opts: ChainOptions = {}): Promise<CausalChain[]> {
  const out: CausalChain[] = [];
  const told = new Set<string>();
  for (const id of episodeIds) {
    if (told.has(id)) continue;
    const chain = await causalChain(storage, tenant, id, opts);
    if (!chain) continue;
    const key = [...chain.episodeIds].sort().join(',');
    if (out.some((c) => [...c.episodeIds].sort().join(',') === key)) continue;
    chain.episodeIds.forEach((x) => told.add(x));
    out.push(chain);
  }
  return out;
}
