/**
 * Serves the web console (src/interfaces/web, built by vite into `dist/web`) at `/`; the API stays
 * under `/v1`. Files are served by path (hashed assets cached for a year, compressed), every other
 * GET outside `/v1` gets `index.html` so the console's own routes load on a reload. Nothing is
 * fetched from elsewhere: the content security policy allows only this origin.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Context } from 'hono';
import { compress } from 'hono/compress';

import type { Logger } from '../../domain/log.js';
import type { HttpApp } from './routes/common.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Chart and graph drawing set inline styles, so styles may be inline; scripts never. */
const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The built console of this package: `dist/web` beside the nearest package.json above this
 * module (the same from src/ under tsx, from dist/, and from the bundled CLI); null when not built.
 */
export function consoleDir(from: string = dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      const web = join(dir, 'dist', 'web');
      return existsSync(join(web, 'index.html')) ? web : null;
    }
    if (dirname(dir) === dir) return null;
  }
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>engram</title>
<body><h1>The engram console is not built</h1><p>Run <code>npm run build</code>, then start
<code>engram serve</code> again. The API is served under <a href="/v1/openapi.json">/v1</a>.</p></body></html>`;

/** Registers the console routes (after the API routes: `/v1/...` never reaches them). */
export function registerConsole(app: HttpApp, dir: string | null, log: Logger): void {
  if (dir === null)
    log.info('web console not built (npm run build): / answers with how to build it');
  app.use('*', async (c, next) => {
    if (c.req.path.startsWith('/v1/') || c.req.path === '/v1') return next();
    return compress()(c, next);
  });
  app.get('*', async (c, next) => {
    if (c.req.path.startsWith('/v1/') || c.req.path === '/v1') return next();
    if (dir === null) return page(c, NOT_BUILT, 404);
    return serveFile(c, dir);
  });
}

async function serveFile(c: Context, dir: string): Promise<Response> {
  const root = resolve(dir);
  let path: string;
  try {
    path = resolve(root, `.${decodeURIComponent(c.req.path)}`);
  } catch {
    return c.text('bad path', 400);
  }
  if (path !== root && !path.startsWith(root + sep)) return c.text('bad path', 400);
  const file = (await isFile(path)) ? path : null;
  // A path with an extension names a file: a missing one is 404, not the app.
  if (file === null && extname(c.req.path) !== '') return c.text('not found', 404);
  const served = file ?? join(root, 'index.html');
  const body = await readFile(served);
  const immutable = served.startsWith(join(root, 'assets') + sep);
  c.header('Content-Type', TYPES[extname(served)] ?? 'application/octet-stream');
  c.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  securityHeaders(c);
  return c.body(body, 200);
}

function page(c: Context, html: string, status: 404): Response {
  securityHeaders(c);
  return c.html(html, status);
}

function securityHeaders(c: Context): void {
  c.header('Content-Security-Policy', POLICY);
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
