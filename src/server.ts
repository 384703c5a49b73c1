/**
 * `npm start`: the engram service — the HTTP API and the background worker — on the embedded
 * default store (or the file named by `ENGRAM_CONFIG`), printing its URL; SIGTERM or SIGINT
 * stops it gracefully.
 */
import { isEngramError } from './domain/errors.js';
import { EXIT_CODES } from './interfaces/error-codes.js';
import { runHttpService } from './interfaces/http/service.js';

runHttpService().catch((err: unknown) => {
  process.stderr.write(`engram: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = isEngramError(err) ? EXIT_CODES[err.code] : 1;
});
