/**
 * Writes the multilingual recall set to bench/multilingual/set/<lang>.json from the templates
 * (`npx tsx bench/multilingual/build-set.ts`), formatted as the repository's Prettier settings
 * say. The files are committed; set.test.ts checks that they still match what the templates make.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { format, resolveConfig } from 'prettier';

import { buildLanguageSet, LANGUAGES, setPath } from './set.js';

mkdirSync(join(import.meta.dirname, 'set'), { recursive: true });
for (const t of LANGUAGES) {
  const set = buildLanguageSet(t);
  const path = setPath(t.lang);
  const options = { ...(await resolveConfig(path)), filepath: path };
  writeFileSync(path, await format(JSON.stringify(set), options));
  process.stderr.write(
    `${t.lang}: ${set.memories.length} memories, ${set.questions.length} questions\n`,
  );
}
