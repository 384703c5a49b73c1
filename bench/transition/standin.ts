/**
 * The OpenAI-compatible embeddings server of the benchmark, in its own process so that its work
 * (answering, serialising vectors) does not run on the rebuilding process's thread, as a real
 * server would not: `node --import tsx bench/transition/standin.ts <dimension>`. It is the test
 * suite's stand-in (test/support/openai-standin.ts). Prints `@@ready {"url"}`, and at a `stop` line
 * on stdin (or stdin's end) `@@result` with the requests it answered and their sizes.
 */
import { createInterface } from 'node:readline';

import { startOpenAiStandIn } from '../../test/support/openai-standin.js';

const emit = (tag: string, value: unknown): void => {
  process.stdout.write(`@@${tag} ${JSON.stringify(value)}\n`);
};

/** Requests by number of input texts. */
function sizes(requests: readonly { body: unknown }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { body } of requests) {
    const input = (body as { input?: unknown } | null)?.input;
    const n = Array.isArray(input) ? input.length : 1;
    out[n] = (out[n] ?? 0) + 1;
  }
  return out;
}

async function main(): Promise<void> {
  const dimension = Number(process.argv[2] ?? 384);
  const server = await startOpenAiStandIn({ dimension });
  emit('ready', { url: server.url, dimension });
  await new Promise<void>((done) => {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => line.trim() === 'stop' && done());
    lines.on('close', () => done());
  });
  const texts = server.requests.reduce((n, r) => {
    const input = (r.body as { input?: unknown } | null)?.input;
    return n + (Array.isArray(input) ? input.length : 1);
  }, 0);
  const result = { requests: server.requests.length, texts, request_sizes: sizes(server.requests) };
  await server.close();
  emit('result', result);
}

main().catch((err: unknown) => {
  process.stderr.write(`stand-in failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
