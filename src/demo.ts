/**
 * `npm start`: a short demonstration on the embedded default. Stores sample memories in a
 * temporary SQLite store with the built-in static embedder and recalls them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createEngram } from './app.js';
import type { RememberInput } from './domain/input.js';

const SAMPLES: RememberInput[] = [
  {
    kind: 'preference',
    area: 'people/alex',
    body: 'Alex prefers TypeScript over Python for backend services.',
    tags: ['language'],
  },
  {
    kind: 'fact',
    area: 'projects/billing',
    body: 'The billing service runs on PostgreSQL 15 and listens on port 5433.',
  },
  {
    kind: 'rule',
    area: 'projects/billing',
    body: 'Never deploy the billing service on Fridays.',
    importance: 0.9,
  },
  {
    kind: 'procedure',
    area: 'ops',
    title: 'Rotate API keys',
    body: 'To rotate API keys: create the new key, deploy it, wait one hour, then revoke the old key.',
  },
  {
    kind: 'note',
    area: 'general',
    body: 'The team offsite is planned for the second week of March in Lisbon.',
  },
  { kind: 'identity', area: 'people/alex', body: 'Alex is the tech lead of the payments team.' },
];

const QUERIES = [
  'what language does Alex like?',
  'which database does billing use',
  'when can we ship billing changes',
  'how do I replace an API credential',
];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-demo-'));
  const engram = createEngram({
    config: { store: { path: join(dir, 'demo.db') } },
    background: false,
  });
  try {
    process.stdout.write(
      'engram demo: preparing the built-in embedder (built once, then cached)...\n',
    );
    await engram.prepareModels({
      onProgress: ({ phase, done, total }) =>
        process.stdout.write(`\r  ${phase}: ${Math.round((100 * done) / Math.max(1, total))}%   `),
    });
    process.stdout.write('\n');
    for (const sample of SAMPLES) {
      const { memory } = await engram.remember(sample);
      process.stdout.write(`remembered ${memory.id} [${memory.kind}] ${memory.body}\n`);
    }
    for (const query of QUERIES) {
      const result = await engram.recall({ query, k: 2 });
      process.stdout.write(
        `\nrecall "${query}" (${result.timings_ms.total} ms${result.degraded.length ? `, degraded: ${result.degraded.map((d) => d.reason).join(', ')}` : ''})\n`,
      );
      for (const hit of result.hits)
        process.stdout.write(
          `  ${hit.score.toFixed(4)}  ${JSON.stringify(hit.channels)}  ${hit.body}\n`,
        );
    }
    process.stdout.write(
      `\nDone. The demo store was temporary; try the CLI next: npx engram --help\n`,
    );
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`engram demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
