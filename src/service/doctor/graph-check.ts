/**
 * The doctor's knowledge-graph check: the English language model that extracts entities loads, and
 * how long that takes (every process that writes with the graph on pays it once).
 */
import { analyse, loadNlp } from '../../graph/nlp.js';
import type { Check, Finding } from './types.js';

/** Loads the model and reads one sentence with it. */
export const graphCheck: Check = async (ctx): Promise<Finding> => {
  if (!ctx.config!.graph.enabled)
    return { status: 'ok', finding: 'knowledge graph off (graph.enabled: false)' };
  const started = performance.now();
  try {
    loadNlp();
    const words = analyse('Alex moved the billing service to Lisbon.').values.length;
    const ms = Math.round(performance.now() - started);
    return {
      status: 'ok',
      finding: `language model loads in ${ms} ms (graph extraction ${ctx.config!.graph.worker ? 'in a worker thread' : 'inline'})`,
      details: { load_ms: ms, words },
    };
  } catch (err) {
    return {
      status: 'fail',
      finding: `the graph's language model does not load: ${err instanceof Error ? err.message : String(err)}`,
      fix: 'npm ci (reinstalls wink-nlp and its model), or set graph.enabled: false',
      code: 'INTERNAL',
    };
  }
};
