/**
 * The typed links around an episode as a graph (Cytoscape.js): nodes coloured by outcome, edges labelled by
 * link type. Clicking a node selects it. The canvas is not keyboard-reachable, so the same links are also
 * listed as buttons beside it (see Episodes).
 */
import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { useEffect, useRef } from 'react';
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
  const cy = useRef<Core | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    if (!el.current) return;
    const known = new Set(nodes.map((n) => n.id));
    const elements: ElementDefinition[] = [
      ...nodes.map((n) => ({ data: { id: n.id, label: n.label, color: n.outcome ? OUTCOME_COLOR[n.outcome] : '#6e7781', focus: n.focus ? 1 : 0 } })),
      ...links.filter((l) => known.has(l.from_id) && known.has(l.to_id)).map((l) => ({ data: { id: l.id, source: l.from_id, target: l.to_id, label: l.type } })),
    ];
    const instance = cytoscape({
      container: el.current,
      elements,
      style: [
        {
          selector: 'node',
          style: {
            'background-color': 'data(color)',
            label: 'data(label)',
            'font-size': 10,
            'text-wrap': 'wrap',
            'text-max-width': '140px',
            'text-valign': 'bottom',
            'text-margin-y': 4,
            color: '#1b1f24',
            width: 22,
            height: 22,
          },
        },
        { selector: 'node[focus = 1]', style: { 'border-width': 3, 'border-color': '#1f5fbf', width: 30, height: 30 } },
        {
          selector: 'edge',
          style: {
            'curve-style': 'bezier',
            'target-arrow-shape': 'triangle',
            width: 2,
            'line-color': '#8c959f',
            'target-arrow-color': '#8c959f',
            label: 'data(label)',
            'font-size': 9,
            color: '#57606a',
            'text-background-color': '#ffffff',
            'text-background-opacity': 1,
          },
        },
      ],
      layout: { name: 'breadthfirst', directed: true, padding: 48, spacingFactor: 1.2 },
      userZoomingEnabled: true,
      wheelSensitivity: 0.3,
    });
    instance.on('tap', 'node', (e) => select.current(e.target.id() as string));
    cy.current = instance;
    return () => instance.destroy();
  }, [nodes, links]);

  return <div ref={el} className="graph" role="img" aria-label={`Causal graph: ${nodes.length} memories, ${links.length} links`} data-testid="causal-graph" />;
}
