/**
 * Worker-thread entry of entity extraction: the language model runs here, off the thread that
 * serves requests and writes the store. The model loads as the worker starts. Messages: `{id, texts, options}` -> `{id, results}` or
 * `{id, error}`.
 */
import { parentPort } from 'node:worker_threads';

import { extractMany, type ExtractOptions } from './extract.js';
import { loadNlp } from './nlp.js';

/** A request to the worker. */
export interface ExtractRequest {
  id: number;
  texts: string[];
  options: ExtractOptions;
}

parentPort?.on('message', (request: ExtractRequest) => {
  try {
    const results = extractMany(request.texts, request.options);
    parentPort!.postMessage({ id: request.id, results });
  } catch (err) {
    parentPort!.postMessage({ id: request.id, error: String(err) });
  }
});
parentPort?.postMessage({ ready: true });
// A worker starts only to extract: the model loads at once, while the caller is still busy with
// other work, instead of when the first texts arrive. Requests that come meanwhile queue.
setImmediate(loadNlp);
