/**
 * How graph hits are shown: the JSON view a context result and the graph API carry, and the "Entities" section of
 * a context's text (the best relations, each with its time and provenance, within a share of the budget).
 */
import { relationSentence, type Entity, type GraphProvenance } from '../core/graph.js';
import type { GraphHit } from './graph.js';
import { sectionBlock } from './render.js';

/** What a context result carries for each relation shown (JSON-ready). */
export interface GraphHitView {
  relationId: string;
  text: string;
  type: string;
  source: { id: string; name: string; entityType: string };
  target: { id: string; name: string; entityType: string };
  hop: number;
  score: number;
  confidence: number;
  validFrom: string | null;
  validTo: string | null;
  expired: boolean;
  provenance: GraphProvenance;
  /** The statement it was read from, as written. */
  statement: string | null;
}

const iso = (t: number | undefined) => (t === undefined ? null : new Date(t).toISOString());

export function hitView(h: GraphHit): GraphHitView {
  const end = (e: Entity) => ({ id: e.id, name: e.name, entityType: e.entityType });
  return {
    relationId: h.relation.id,
    text: relationSentence(h.relation, h.source.name, h.target.name),
    type: h.relation.type,
    source: end(h.source),
    target: end(h.target),
    hop: h.hop,
    score: h.score,
    confidence: h.relation.confidence,
    validFrom: iso(h.relation.validFrom),
    validTo: iso(h.relation.validTo),
    expired: h.relation.expiredAt !== undefined,
    provenance: { origin: h.relation.provenance.origin, eventIds: [...h.relation.provenance.eventIds], factIds: [...h.relation.provenance.factIds] },
    statement: h.relation.text ?? null,
  };
}

/** One line of the Entities section: the relation, its time, and where it was read. */
export function entityLine(h: GraphHit, provenanceInline: boolean): string {
  const r = h.relation;
  const when = [r.validFrom !== undefined ? `since ${iso(r.validFrom)!.slice(0, 10)}` : '', r.validTo !== undefined ? `until ${iso(r.validTo)!.slice(0, 10)}` : ''].filter(Boolean).join(' ');
  const from = provenanceInline ? [...r.provenance.eventIds, ...r.provenance.factIds].slice(0, 3).join(', ') : '';
  const tail = [when, from ? `from ${from}` : ''].filter(Boolean).join('; ');
  return `- ${relationSentence(r, h.source.name, h.target.name)}${tail ? ` (${tail})` : ''}`;
}

/** At most this share of the token budget goes to the Entities section; the memories keep the rest. */
export const ENTITIES_BUDGET_SHARE = 0.25;
export const MAX_ENTITY_LINES = 8;

/**
 * The "Entities" section: the best relations, each with its time and provenance, while it fits its share of the
 * budget. Empty (no text) when there are no hits or none fits.
 */
export function entitiesSection(
  hits: readonly GraphHit[],
  opts: { budget: number; tokens: { count(text: string): number }; provenanceInline: boolean; scrub?: ((t: string) => string) | undefined },
): { text: string; tokens: number; shown: GraphHit[] } {
  const cap = Math.floor(opts.budget * ENTITIES_BUDGET_SHARE);
  const shown: GraphHit[] = [];
  let text = '';
  for (const h of hits.slice(0, MAX_ENTITY_LINES)) {
    const line = entityLine(h, opts.provenanceInline);
    const lines = [...shown.map((x) => entityLine(x, opts.provenanceInline)), opts.scrub ? opts.scrub(line) : line];
    const next = sectionBlock('Entities', lines);
    if (opts.tokens.count(next) > cap) break;
    shown.push(h);
    text = next;
  }
  return { text, tokens: text ? opts.tokens.count(text) + 2 : 0, shown };
}
