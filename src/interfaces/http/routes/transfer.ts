/**
 * Import and export of a space as JSONL streams. Import reads the request body line by line
 * (never buffering it whole), commits in batches and streams one result per line as batches
 * commit, then a summary; export streams the export format with backpressure.
 */
import { createRoute, z } from '@hono/zod-openapi';

import { EngramError } from '../../../domain/errors.js';
import type { Logger } from '../../../domain/log.js';
import { exportLines, importLines } from '../../../transfer/transfer.js';
import { ndjsonLines } from '../body.js';
import { publicError } from '../errors.js';
import { SpaceParams } from '../schemas.js';
import { access, ERRORS, type HttpApp, type RouteDeps } from './common.js';

const NDJSON = 'application/x-ndjson';
const encoder = new TextEncoder();

const ndjson = (description: string) => ({
  description,
  content: { [NDJSON]: { schema: z.string().openapi({ description: 'One JSON value per line' }) } },
});

function line(value: unknown): Uint8Array {
  return encoder.encode(`${JSON.stringify(value)}\n`);
}

function registerImport(app: HttpApp, deps: RouteDeps, log: Logger): void {
  const { engram, limits } = deps;
  const route = createRoute({
    method: 'post',
    path: '/v1/spaces/{space}/import',
    tags: ['transfer'],
    summary: 'Import JSONL (plain memory lines or an engram export); idempotent',
    description: `The body is JSONL: \`{"body": ...}\` memory lines or the lines of an export. Every line must belong to the space of the path. The response streams one result per line as each batch commits (\`{"line", "status", "id"?, "error"?}\`), then \`{"summary": {...}}\`. A line or stream over its size cap, or a line that is not UTF-8, stops the import with a final \`{"error": {...}}\` line: lines without a result were not imported. Re-running an import creates nothing twice.`,
    middleware: [access('write')] as const,
    request: { params: SpaceParams, body: { required: true, ...ndjson('JSONL lines') } },
    responses: { 200: ndjson('Per-line results, then a summary'), ...ERRORS },
  });
  app.openapi(route, async (c) => {
    const space = c.get('space');
    const requestId = c.get('requestId');
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > limits.maxImportBytes)
      throw new EngramError(
        'PAYLOAD_TOO_LARGE',
        `import stream exceeds ${limits.maxImportBytes} bytes`,
        { rule: `at most ${limits.maxImportBytes} bytes` },
      );
    const signal = c.req.raw.signal;
    const lines = ndjsonLines(c.req.raw.body, {
      maxBytes: limits.maxImportBytes,
      maxLineBytes: limits.maxImportLineBytes,
    });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        // After a client leaves, the stream is cancelled and writing to it throws: drop instead.
        const send = (value: unknown) => {
          try {
            controller.enqueue(line(value));
          } catch {
            /* the client is gone */
          }
        };
        const work = importLines(engram, lines, {
          space,
          confine: true,
          onBatch: (results) => results.forEach(send),
        })
          .then(({ errors: _errors, ...summary }) => send({ summary }))
          .catch((err: unknown) => {
            if (signal.aborted) log.info('client left during an import', { request_id: requestId });
            else send({ error: publicError(err, log, requestId).toJSON() });
          })
          .finally(() => {
            try {
              controller.close();
            } catch {
              /* the client is gone */
            }
          });
        void deps.track(work);
      },
    });
    // Typed routes only model JSON and text bodies; a JSONL stream is a plain Response.
    return new Response(stream, { status: 200, headers: { 'content-type': NDJSON } }) as never;
  });
}

function registerExport(app: HttpApp, deps: RouteDeps, log: Logger): void {
  const route = createRoute({
    method: 'get',
    path: '/v1/spaces/{space}/export',
    tags: ['transfer'],
    summary: 'Export the space as JSONL (items with versions, events and vectors; relations)',
    middleware: [access('read')] as const,
    request: { params: SpaceParams },
    responses: { 200: ndjson('A header line, one line per item, one per relation'), ...ERRORS },
  });
  app.openapi(route, async (c) => {
    const space = c.get('space');
    const requestId = c.get('requestId');
    const lines = exportLines(deps.engram, space)[Symbol.asyncIterator]();
    let finish: () => void = () => undefined;
    void deps.track(new Promise<void>((resolve) => (finish = resolve)));
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await lines.next();
          if (next.done) {
            controller.close();
            finish();
          } else controller.enqueue(encoder.encode(`${next.value}\n`));
        } catch (err) {
          // Headers are out: abort the response so the client sees a broken transfer.
          publicError(err, log, requestId);
          controller.error(err);
          finish();
        }
      },
      async cancel() {
        await lines.return?.();
        finish();
      },
    });
    const date = new Date().toISOString().slice(0, 10);
    // Typed routes only model JSON and text bodies; a JSONL stream is a plain Response.
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': NDJSON,
        'content-disposition': `attachment; filename="engram-${space}-${date}.jsonl"`,
      },
    }) as never;
  });
}

/** Registers import and export. */
export function registerTransferRoutes(app: HttpApp, deps: RouteDeps, log: Logger): void {
  registerImport(app, deps, log);
  registerExport(app, deps, log);
}
