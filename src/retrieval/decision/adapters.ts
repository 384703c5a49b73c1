/**
 * The decision adapter `recall.decision.adapter` names (§5.1), built from what the process has:
 * `alignment` over the word vectors, `cross-encoder` over the local ONNX folder of
 * `recall.rerank.cross_encoder`, `openai-compatible` over a chat endpoint (its key from the
 * configuration or the environment, never from a request).
 */
import type { Config } from '../../config/schema.js';
import type { WordVectorSource } from '../rerank/alignment.js';
import { configuredScorer } from '../rerank/scorers.js';
import type { DecisionAdapter } from './adapter.js';
import { OpenAiJudge } from './openai-judge.js';
import { ScorerAdapter } from './scorer-adapter.js';

/** The configured adapter, or null with `adapter: none`. */
export function decisionAdapter(
  config: Config,
  words: WordVectorSource | null,
  env: Record<string, string | undefined>,
): DecisionAdapter | null {
  const { decision, rerank } = config.recall;
  switch (decision.adapter) {
    case 'none':
      return null;
    case 'alignment':
      return new ScorerAdapter(
        'alignment',
        configuredScorer(
          {
            ...rerank,
            scorer: 'alignment',
            alignment: { ...rerank.alignment, pool_weighting: decision.alignment.pool_weighting },
          },
          words,
        ),
        decision.alignment.rank_prior,
      );
    case 'cross-encoder':
      return new ScorerAdapter(
        'cross-encoder',
        rerank.cross_encoder.path === undefined
          ? null
          : configuredScorer({ ...rerank, scorer: 'cross-encoder' }, words),
      );
    case 'openai-compatible': {
      const o = decision.openai;
      const baseUrl = o.base_url!;
      return new OpenAiJudge({
        baseUrl,
        model: o.model!,
        apiKey: o.api_key ?? (env[o.api_key_env] || undefined),
        // The hosted API needs a key; a local server (llama.cpp, vLLM, Ollama) usually does not.
        requireKey: new URL(baseUrl).hostname === 'api.openai.com',
        concurrency: o.concurrency,
        logprobs: o.logprobs,
      });
    }
  }
}
