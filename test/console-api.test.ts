/**
 * The web console's typed API (src/interfaces/web/lib/api-schema.d.ts) is generated from the HTTP
 * API's OpenAPI document; this fails while the committed file is older than the routes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import { consoleApiTypes } from '../scripts/console-api.js';

it('the console API types match /v1/openapi.json (npx tsx scripts/console-api.ts > src/interfaces/web/lib/api-schema.d.ts)', async () => {
  const committed = readFileSync(
    join(import.meta.dirname, '..', 'src', 'interfaces', 'web', 'lib', 'api-schema.d.ts'),
    'utf8',
  );
  expect(committed === (await consoleApiTypes())).toBe(true);
});
