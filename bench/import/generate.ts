/**
 * The inputs of the import benchmark, made from a seed: a folder of Markdown notes (nested
 * folders, front matter on half of them, two sections, a wiki link and an inline tag each) and an
 * MCP memory server JSONL graph (entities with observations, and relations between them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { sentences } from '../http/corpus.js';
import { mulberry32 } from '../lib/random.js';

const FOLDERS = ['projects', 'people', 'runbooks', 'meetings', 'decisions'];
const TAGS = ['ops', 'billing', 'oncall', 'design', 'hiring', 'release', 'security', 'infra'];
const TYPES = ['person', 'project', 'service', 'team', 'organization'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/**
 * Writes `count` notes under `dir` (in folders two levels deep); returns their count. With
 * `links: false` the link to another note is plain text (the same words, no brackets).
 */
export function writeMarkdownFolder(
  dir: string,
  count: number,
  options: { seed?: number; links?: boolean } = {},
): number {
  const seed = options.seed ?? 11;
  const open = options.links === false ? '' : '[[';
  const close = options.links === false ? '' : ']]';
  const random = mulberry32(seed);
  const text = sentences(count * 4, seed);
  for (let i = 0; i < count; i++) {
    const folder = join(dir, FOLDERS[i % FOLDERS.length]!, `batch-${Math.floor(i / 1000)}`);
    mkdirSync(folder, { recursive: true });
    const title = `Note ${i}`;
    const link = `Note ${Math.floor(random() * count)}`;
    const tag = pick(random, TAGS);
    const front =
      i % 2 === 0 ? `---\ntitle: ${title}\ntags: [${tag}, n${i % 97}]\nstatus: draft\n---\n\n` : '';
    const body = [
      `# ${title}`,
      '',
      `${text[i * 4]} ${text[i * 4 + 1]} (note ${i})`,
      '',
      '## Details',
      '',
      `${text[i * 4 + 2]} See ${open}${link}${close}. #${tag}`,
      '',
      '## Follow-up',
      '',
      `${text[i * 4 + 3]}`,
      '',
    ].join('\n');
    writeFileSync(join(folder, `note-${i}.md`), `${front}${body}`);
  }
  return count;
}

/**
 * Writes an MCP memory graph with `observations` observations (ten per entity) and one relation
 * per two entities to `file`; returns the number of records that become memories.
 */
export function writeMcpMemoryFile(file: string, observations: number, seed = 13): number {
  const random = mulberry32(seed);
  const perEntity = 10;
  const entities = Math.ceil(observations / perEntity);
  const text = sentences(observations, seed);
  const lines: string[] = [];
  for (let e = 0; e < entities; e++) {
    const obs = text.slice(e * perEntity, (e + 1) * perEntity).map((t, k) => `${t} (${k})`);
    const entityType = pick(random, TYPES);
    lines.push(
      JSON.stringify({ type: 'entity', name: `Entity ${e}`, entityType, observations: obs }),
    );
  }
  for (let e = 0; e + 1 < entities; e += 2) {
    const relationType = pick(random, ['works_on', 'depends_on', 'owns', 'reports_to']);
    lines.push(
      JSON.stringify({
        type: 'relation',
        from: `Entity ${e}`,
        to: `Entity ${e + 1}`,
        relationType,
      }),
    );
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return observations + Math.floor(entities / 2);
}
