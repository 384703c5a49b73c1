/**
 * The neighbourhood drawing: cytoscape on a canvas (imported here only, so it lands in the graph
 * page's chunk), laid out as a radial tree around the start entity (see radialLayout); nodes
 * sized by mentions, edges styled by type, click a node to re-centre on it, wheel or buttons to
 * zoom, drag to pan. Colours come from the theme's CSS variables and follow a theme change. The
 * canvas is an image with a summary as its name: the table beside it is the text alternative.
 */
import cytoscape, { type Core, type ElementDefinition, type StylesheetJson } from 'cytoscape';
import { useEffect, useRef } from 'preact/hooks';

import { EDGE_LOOKS, type EdgeType, type GraphLink, type GraphNode, radialLayout } from './model';

type Colours = Record<string, string>;

const VARIABLES = ['--bg', '--panel', '--text', '--muted', '--line', '--accent', '--accent-text'];

/** The theme's colours, read from the CSS variables of the page. */
function themeColours(): Colours {
  const style = getComputedStyle(document.documentElement);
  const out: Colours = {};
  for (const name of [...VARIABLES, ...Object.values(EDGE_LOOKS).map((l) => l.colour)])
    out[name] = style.getPropertyValue(name).trim() || '#888';
  return out;
}

function nodeSize(mentions: number): number {
  return Math.min(52, 20 + 7 * Math.log2(1 + mentions));
}

function edgeStyles(c: Colours): StylesheetJson {
  return (Object.keys(EDGE_LOOKS) as EdgeType[]).map((type) => ({
    selector: `edge[type = "${type}"]`,
    style: {
      'line-color': c[EDGE_LOOKS[type].colour]!,
      'line-style': EDGE_LOOKS[type].line,
    },
  }));
}

/** The cytoscape stylesheet of a theme. */
function stylesheet(c: Colours): StylesheetJson {
  return [
    {
      selector: 'node',
      style: {
        label: 'data(name)',
        width: 'data(size)',
        height: 'data(size)',
        'background-color': c['--panel']!,
        'border-width': 2,
        'border-color': c['--accent']!,
        color: c['--text']!,
        'font-size': 13,
        'font-family': 'system-ui, sans-serif',
        'text-valign': 'bottom',
        'text-margin-y': 4,
        'text-wrap': 'wrap',
        'text-max-width': '110px',
        'text-background-color': c['--bg']!,
        'text-background-opacity': 0.85,
        'text-background-padding': '2px',
      },
    },
    { selector: 'node[distance > 1]', style: { 'border-color': c['--muted']!, 'font-size': 12 } },
    {
      selector: 'node[distance = 0]',
      style: { 'background-color': c['--accent']!, 'font-weight': 'bold', 'font-size': 14 },
    },
    {
      selector: 'edge',
      style: { width: 'mapData(weight, 1, 10, 1.5, 6)', 'curve-style': 'straight', opacity: 0.9 },
    },
    ...edgeStyles(c),
    { selector: 'node:active', style: { 'overlay-opacity': 0.15 } },
  ];
}

/** The cytoscape id of the i-th node. */
const nodeId = (i: number) => `n${i}`;

/** Cytoscape elements: nodes get short ids (keys may hold any character), edges point at them. */
function elements(nodes: readonly GraphNode[], links: readonly GraphLink[]): ElementDefinition[] {
  const ids = new Map(nodes.map((n, i) => [n.key, nodeId(i)]));
  return [
    ...nodes.map((n) => ({
      group: 'nodes' as const,
      data: { ...n, id: ids.get(n.key)!, size: nodeSize(n.mentions) },
    })),
    ...links.flatMap((l, i) => {
      const source = ids.get(l.from);
      const target = ids.get(l.to);
      if (!source || !target) return [];
      return [{ group: 'edges' as const, data: { ...l, id: `e${i}`, source, target } }];
    }),
  ];
}

/** Places the nodes as a radial tree (see radialLayout); a small neighbourhood is not blown up. */
function layout(cy: Core, nodes: readonly GraphNode[], links: readonly GraphLink[]): void {
  const at = radialLayout(nodes, links);
  const positions = Object.fromEntries(
    nodes.map((n, i) => [nodeId(i), at.get(n.key) ?? { x: 0, y: 0 }]),
  );
  cy.layout({
    name: 'preset',
    positions,
    padding: 28,
    animate: false,
    fit: true,
  }).run();
  if (cy.zoom() > 1.4) {
    cy.zoom(1.4);
    cy.center();
  }
}

/** Creates the cytoscape instance of a container, following the theme while it lives. */
function useCytoscape(
  container: { current: HTMLDivElement | null },
  onPick: (key: string) => void,
): { current: Core | null } {
  const cy = useRef<Core | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    const core = cytoscape({
      container: container.current,
      style: stylesheet(themeColours()),
      minZoom: 0.2,
      maxZoom: 4,
      wheelSensitivity: 0.3,
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    core.on('tap', 'node', (e) => pick.current(e.target.data('key') as string));
    const cursor = (value: string) => () => {
      if (container.current) container.current.style.cursor = value;
    };
    core.on('mouseover', 'node', cursor('pointer'));
    core.on('mouseout', 'node', cursor(''));
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    const restyle = () => core.style(stylesheet(themeColours()));
    scheme.addEventListener('change', restyle);
    cy.current = core;
    return () => {
      scheme.removeEventListener('change', restyle);
      core.destroy();
      cy.current = null;
    };
  }, []);
  return cy;
}

/** The drawing of a neighbourhood, with zoom and fit buttons for keyboard users. */
export function Drawing(props: {
  nodes: readonly GraphNode[];
  links: readonly GraphLink[];
  label: string;
  onPick: (key: string) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const cy = useCytoscape(container, props.onPick);
  useEffect(() => {
    const core = cy.current;
    if (!core) return;
    core.batch(() => {
      core.elements().remove();
      core.add(elements(props.nodes, props.links));
    });
    layout(core, props.nodes, props.links);
  }, [props.nodes, props.links]);
  const zoom = (factor: number) => {
    const core = cy.current;
    if (!core) return;
    core.zoom({
      level: core.zoom() * factor,
      renderedPosition: { x: core.width() / 2, y: core.height() / 2 },
    });
  };
  return (
    <div class="graph-drawing">
      <div class="graph-tools" role="group" aria-label="Drawing view">
        <button type="button" onClick={() => zoom(1.25)}>
          Zoom in
        </button>
        <button type="button" onClick={() => zoom(0.8)}>
          Zoom out
        </button>
        <button type="button" onClick={() => cy.current?.fit(undefined, 24)}>
          Fit
        </button>
        <span class="muted graph-hint">Click an entity to centre on it; drag to pan.</span>
      </div>
      <div ref={container} class="graph-canvas" role="img" aria-label={props.label} />
    </div>
  );
}
