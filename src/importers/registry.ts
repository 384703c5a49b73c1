/** The importers by format: the one list `engram import --from` and `importFrom` choose from. */
import { EngramError } from '../domain/errors.js';
import { IMPORT_FORMATS, type Importer, type ImportFormat } from './importer.js';
import { markdownImporter } from './markdown.js';
import { mcpMemoryImporter } from './mcp-memory.js';
import { mem0Importer } from './mem0.js';

const IMPORTERS: Readonly<Record<ImportFormat, Importer>> = {
  'mcp-memory': mcpMemoryImporter,
  mem0: mem0Importer,
  markdown: markdownImporter,
};

/** The importer of a format; an unknown format fails naming the field and the choices. */
export function importerFor(format: string): Importer {
  const importer = IMPORTERS[format as ImportFormat];
  if (importer) return importer;
  throw new EngramError('INVALID_INPUT', `format: must be one of ${IMPORT_FORMATS.join(', ')}`, {
    field: 'format',
    rule: IMPORT_FORMATS.join(' | '),
  });
}
