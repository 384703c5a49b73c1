/**
 * Worker-thread entry of message analysis (parse-ahead.ts): loads the language model as the thread
 * starts, then parses each text it is sent. Messages: `{id, text}` -> `{id, parsed}` or `{id, error}`.
 */
import { parentPort } from 'node:worker_threads';

import { loadNlp, parseText } from './nlp.js';

/** A request to the worker. */
export interface ParseRequest {
  id: number;
  text: string;
}

parentPort?.on('message', (request: ParseRequest) => {
  try {
    parentPort!.postMessage({ id: request.id, parsed: parseText(request.text) });
  } catch (err) {
    parentPort!.postMessage({ id: request.id, error: String(err) });
  }
});
// The thread is started ahead of the text it will parse: the model loads at once.
setImmediate(loadNlp);
