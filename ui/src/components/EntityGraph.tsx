/**
 * Entities and the relations between them as a graph (Cytoscape.js): nodes coloured by entity type, edges
 * labelled by relation type, the selected entity ringed. Clicking a node selects it. The canvas is not
 * keyboard-reachable, so the entities and relations are also listed as buttons beside it (see Entities).
 */
import type { ElementDefinition } from 'cytoscape';
import { useEffect, useMemo, useRef } from 'react';
import { edgeStyle, nodeStyle, useCytoscape } from './cytoscape-view';

export interface EntityNode {
  id: string;
  label: string;
  type: string;
}

export interface RelationEdge {
  id: string;
  source: string;
  target: string;
  label: string;
}

const TYPE_COLOR: Record<string, string> = { person: '#1f5fbf', organization: '#8250df', place: '#1a7f37', date: '#9a6700', thing: '#57606a' };

export function EntityGraph({ nodes, edges, selected, onSelect }: { nodes: EntityNode[]; edges: RelationEdge[]; selected: string | null; onSelect: (id: string) => void }) {
  const el = useRef<HTMLDivElement>(null);
  const options = useMemo(() => {
    const known = new Set(nodes.map((n) => n.id));
    const elements: ElementDefinition[] = [
      ...nodes.map((n) => ({ data: { id: n.id, label: n.label, color: TYPE_COLOR[n.type] ?? '#6e7781' } })),
      ...edges.filter((e) => known.has(e.source) && known.has(e.target)).map((e) => ({ data: { id: e.id, source: e.source, target: e.target, label: e.label } })),
    ];
    return {
      elements,
      style: [nodeStyle(15, 24), { selector: 'node.focus', style: { 'border-width': 4, 'border-color': '#cf222e', width: 32, height: 32 } }, edgeStyle(12)],
      // A ring reads best for a few entities; a force-directed layout for more.
      layout: nodes.length <= 12 ? { name: 'circle', padding: 50 } : { name: 'cose', padding: 40, animate: false, nodeDimensionsIncludeLabels: true },
      maxZoom: 1.4,
    };
  }, [nodes, edges]);
  const cy = useCytoscape(el, options, onSelect);

  useEffect(() => {
    const instance = cy.current;
    if (!instance) return;
    instance.nodes().removeClass('focus');
    if (selected) instance.getElementById(selected).addClass('focus');
  }, [cy, selected, options]);

  return <div ref={el} className="graph" role="img" aria-label={`Entity graph: ${nodes.length} entities, ${edges.length} relations`} data-testid="entity-graph" />;
}
