/**
 * The typed links around an episode as a graph (Cytoscape.js): nodes coloured by outcome, edges labelled by
 * link type. Clicking a node selects it. The canvas is not keyboard-reachable, so the same links are also
 * listed as buttons beside it (see Episodes).
 */
import type { ElementDefinition } from 'cytoscape';
import { useMemo, useRef } from 'react';
import { edgeStyle, nodeStyle, useCytoscape } from './cytoscape-view';
import type { Link, Outcome } from '../api/learn-types';

export interface GraphNode {
  id: string;
  label: string;
  outcome?: Outcome;
  focus?: boolean;
}

const OUTCOME_COLOR: Record<Outcome, string> = { SUCCESS: '#1a7f37', FAILURE: '#b42318', PARTIAL: '#9a6700', UNKNOWN: '#57606a' };

export function CausalGraph({ nodes, links, onSelect }: { nodes: GraphNode[]; links: Link[]; onSelect: (id: string) => void }) {
  const el = useRef<HTMLDivElement>(null);
  const options = useMemo(() => {
    const known = new Set(nodes.map((n) => n.id));
    const elements: ElementDefinition[] = [
      ...nodes.map((n) => ({ data: { id: n.id, label: n.label, color: n.outcome ? OUTCOME_COLOR[n.outcome] : '#6e7781', focus: n.focus ? 1 : 0 } })),
      ...links.filter((l) => known.has(l.from_id) && known.has(l.to_id)).map((l) => ({ data: { id: l.id, source: l.from_id, target: l.to_id, label: l.type } })),
    ];
    return {
      elements,
      style: [
        nodeStyle(10, 22, { 'text-wrap': 'wrap', 'text-max-width': '140px' }),
        { selector: 'node[focus = 1]', style: { 'border-width': 3, 'border-color': '#1f5fbf', width: 30, height: 30 } },
        edgeStyle(9),
      ],
      layout: { name: 'breadthfirst', directed: true, padding: 48, spacingFactor: 1.2 },
    };
  }, [nodes, links]);
  useCytoscape(el, options, onSelect);

  return <div ref={el} className="graph" role="img" aria-label={`Causal graph: ${nodes.length} memories, ${links.length} links`} data-testid="causal-graph" />;
}
