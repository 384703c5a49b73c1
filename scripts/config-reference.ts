/**
 * Generates docs/configuration.md from the configuration schema itself, so the reference can
 * never drift from what engram validates: every key, its type and rule, and its default.
 * Run: npx tsx scripts/config-reference.ts > docs/configuration.md
 */
import { configSchema } from '../src/config/schema.js';

interface Def {
  type?: string;
  innerType?: unknown;
  in?: unknown;
  shape?: Record<string, unknown>;
  defaultValue?: unknown;
  entries?: Record<string, string>;
  element?: unknown;
  options?: unknown[];
  checks?: {
    _zod?: { def?: { check?: string; value?: unknown; inclusive?: boolean; format?: string } };
  }[];
}

const node = (s: unknown) => (s as { def?: Def }).def ?? {};

function unwrap(schema: unknown): { core: unknown; def: unknown; optional: boolean } {
  let current = schema;
  let def: unknown;
  let optional = false;
  for (let i = 0; i < 10; i++) {
    const d = node(current);
    if (d.type === 'default' || d.type === 'prefault')
      def ??=
        typeof d.defaultValue === 'function' ? (d.defaultValue as () => unknown)() : d.defaultValue;
    if (d.type === 'optional') optional = true;
    if (['default', 'prefault', 'optional', 'nullable', 'pipe'].includes(d.type ?? ''))
      current = d.innerType ?? d.in;
    else break;
  }
  return { core: current, def, optional };
}

function describe(schema: unknown): string {
  const d = node(schema);
  const checks = (d.checks ?? []).map((c) => c._zod?.def).filter(Boolean);
  const bounds = checks
    .map((c) =>
      c!.check === 'greater_than'
        ? `${c!.inclusive ? '≥' : '>'} ${String(c!.value)}`
        : c!.check === 'less_than'
          ? `${c!.inclusive ? '≤' : '<'} ${String(c!.value)}`
          : c!.check === 'number_format'
            ? 'integer'
            : '',
    )
    .filter(Boolean);
  switch (d.type) {
    case 'enum':
      return `one of ${Object.values(d.entries ?? {})
        .map((v) => `\`${v}\``)
        .join(', ')}`;
    case 'array':
      return `list of ${describe(unwrap(d.element).core)}`;
    case 'number':
      return ['number', ...bounds].join(', ');
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'union':
      return (d.options ?? []).map((o) => describe(unwrap(o).core)).join(' or ');
    default:
      return d.type ?? 'value';
  }
}

function rows(schema: unknown, prefix: string, out: string[]): void {
  const { core } = unwrap(schema);
  const shape = node(core).shape;
  if (!shape) return;
  for (const [key, value] of Object.entries(shape)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const { core: inner, def, optional } = unwrap(value);
    if (node(inner).type === 'object') {
      rows(value, path, out);
      continue;
    }
    const shown = def === undefined ? (optional ? '(unset)' : '') : `\`${JSON.stringify(def)}\``;
    const env = `ENGRAM_${path.replaceAll('.', '_').toUpperCase()}`;
    out.push(`| \`${path}\` | ${describe(inner)} | ${shown} | \`${env}\` |`);
  }
}

const out: string[] = [
  '# Configuration reference',
  '',
  'Generated from `src/config/schema.ts` by `npx tsx scripts/config-reference.ts`; the schema is the rule of record.',
  '',
  'engram reads one YAML file (`--config FILE`, else `$ENGRAM_CONFIG`, else, for the CLI only, `./engram.yaml` when the',
  'working directory has one, else defaults only), then `ENGRAM_*`',
  'environment overrides (named after the key path; values parsed as YAML scalars), then values given to',
  '`createEngram({config})`. Unknown keys, wrong types and values outside a rule stop engram with an error naming',
  "the key and the rule. Relative paths in the file resolve against the file's directory. `store.path` defaults to",
  '`$XDG_DATA_HOME/engram/engram.db` (`~/.local/share/engram/engram.db`), `embedder.cache_dir` to',
  '`$XDG_CACHE_HOME/engram` (`~/.cache/engram`). A running process keeps the configuration it loaded.',
  '',
  '| key | type and rule | default | environment |',
  '|---|---|---|---|',
];
rows(configSchema, '', out);
process.stdout.write(`${out.join('\n')}\n`);
