/**
 * What the inspector's graphs (the causal graph, the entity graph) share: the labelled, directed edge style,
 * the node label style, and one Cytoscape.js instance per set of elements that calls back on a node tap.
 */
import cytoscape, { type Core, type CytoscapeOptions, type StylesheetJsonBlock } from 'cytoscape';
import { useEffect, useRef, type RefObject } from 'react';

/** Labelled, directed edges: the label sits on a white background over the line. */
export function edgeStyle(fontSize: number): StylesheetJsonBlock {
  return {
    selector: 'edge',
    style: {
      'curve-style': 'bezier',
      'target-arrow-shape': 'triangle',
      width: 2,
      'line-color': '#8c959f',
      'target-arrow-color': '#8c959f',
      label: 'data(label)',
      'font-size': fontSize,
      color: '#57606a',
      'text-background-color': '#ffffff',
      'text-background-opacity': 1,
    },
  };
}

/** Nodes coloured by `data(color)`, labelled below. */
export function nodeStyle(fontSize: number, size: number, extra: Record<string, unknown> = {}): StylesheetJsonBlock {
  return {
    selector: 'node',
    style: { 'background-color': 'data(color)', label: 'data(label)', 'font-size': fontSize, 'text-valign': 'bottom', 'text-margin-y': 4, color: '#1b1f24', width: size, height: size, ...extra },
  };
}

/**
 * A Cytoscape instance in `el`, rebuilt when `options` change (memoise them); `onSelect` gets the id of a tapped
 * node. Returns the instance's ref, for restyling without a rebuild.
 */
export function useCytoscape(el: RefObject<HTMLDivElement | null>, options: Omit<CytoscapeOptions, 'container'>, onSelect: (id: string) => void): RefObject<Core | null> {
  const cy = useRef<Core | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;
  useEffect(() => {
    if (!el.current) return;
    const instance = cytoscape({ ...options, container: el.current, userZoomingEnabled: true, wheelSensitivity: 0.3 });
    instance.on('tap', 'node', (e) => select.current(e.target.id() as string));
    cy.current = instance;
    return () => instance.destroy();
  }, [el, options]);
  return cy;
}
