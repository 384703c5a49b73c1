// The floors of engram's source tree, and an ESLint rule that fails on an import that runs upward.
// A module may import modules of its own folder and of folders on lower floors, never a folder on
// its own floor or above: the layering stays visible in the folder names (docs/architecture.md).
import path from 'node:path';

/** Floor of each top-level entry of src/ (folders, and the top files that wire or start engram). */
export const FLOORS = {
  domain: 0,
  config: 1,
  store: 2,
  embed: 2,
  graph: 3,
  jobs: 3,
  models: 3,
  memories: 3,
  access: 3,
  retrieval: 4,
  lifecycle: 5,
  dormant: 5,
  transfer: 5,
  autorecall: 6,
  hygiene: 6,
  importers: 6,
  service: 7,
  'app.ts': 8,
  client: 8,
  interfaces: 9,
  'index.ts': 10,
  'server.ts': 10,
  'demo.ts': 10,
};

/** The top-level entry of src/ that a path lies in, or null outside src/. */
export function entryOf(file, srcRoot) {
  const rel = path.relative(srcRoot, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [entry = ''] = rel.split(path.sep);
  // A top-level module is imported by its emitted name (app.js) and written as app.ts.
  return entry.endsWith('.js') ? `${entry.slice(0, -3)}.ts` : entry;
}

/** Why `from` may not import `to` (top-level entries of src/), or null when it may. */
export function floorViolation(from, to) {
  if (from === to) return null;
  const a = FLOORS[from];
  const b = FLOORS[to];
  if (a === undefined)
    return `src/${from} has no floor: add it to FLOORS in scripts/lint/floors.js`;
  if (b === undefined) return `src/${to} has no floor: add it to FLOORS in scripts/lint/floors.js`;
  if (b < a) return null;
  if (b === a)
    return `src/${from} and src/${to} share floor ${a}; a capability never imports a sibling (move the shared part down a floor)`;
  return `src/${from} (floor ${a}) may not import src/${to} (floor ${b}): imports run downward only`;
}

/** The ESLint rule `engram/floors`. */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports in src/ run only to lower floors (scripts/lint/floors.js).' },
    schema: [{ type: 'object', properties: { srcRoot: { type: 'string' } } }],
  },
  create(context) {
    const srcRoot = path.resolve(context.options[0]?.srcRoot ?? 'src');
    const file = context.filename;
    const from = entryOf(file, srcRoot);
    if (from === null) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = entryOf(path.resolve(path.dirname(file), source), srcRoot);
      if (to === null) return;
      const why = floorViolation(from, to);
      if (why) context.report({ node, message: why });
    };
    const fromSource = (node) => node.source && check(node, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

/** The plugin that carries the rule. */
export default { rules: { floors: rule } };
