/**
 * Starting a worker thread on a script that sits beside the module asking for it: the compiled
 * `.js` file in a build (dist/, or dist/bin/ beside the bundled CLI), or, from the TypeScript
 * sources (development, tests), a bootstrap that registers the TypeScript loader first.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts `<name>.js` (or `<name>.ts` from the sources) beside the module whose `import.meta.url`
 * is `base`. Throws as `new Worker` does when the thread cannot be created; a missing script is
 * reported by the worker's `error` event.
 */
export function startWorkerScript(base: string, name: string, options: WorkerOptions = {}): Worker {
  const source = base.endsWith('.ts');
  const url = new URL(`./${name}${source ? '.ts' : '.js'}`, base);
  if (!source) return new Worker(url, options);
  const boot = `import('tsx/esm/api').then((m) => m.register()).then(() => import(${JSON.stringify(url.href)}))`;
  return new Worker(boot, { ...options, eval: true });
}
