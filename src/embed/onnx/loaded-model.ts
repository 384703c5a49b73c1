/**
 * Loads a checked model folder's tokenizer and ONNX session once (concurrent callers share the
 * load), encodes texts or text pairs into padded batches within the model's length, runs them,
 * and releases the session. Shared by the ONNX embedder and the cross-encoder scorer; the ONNX
 * runtime module is imported here lazily, on the first load.
 */
import { EngramError, isEngramError } from '../../domain/errors.js';
import type { FloatTensor } from './encoding.js';
import { padBatch, type PaddedBatch, truncate } from './encoding.js';
import type { ModelFolder } from './model-folder.js';
import type { ModelHead, TextTokenizer, TokenModel } from './runtime.js';

/** One input of a batch: a text, or a (text, pair) couple for a cross-encoder. */
export type ModelInput = readonly [text: string, pair?: string];

/** A tokenizer and session ready to run, with the input length they accept. */
interface Loaded {
  tokenizer: TextTokenizer;
  model: TokenModel;
  maxLength: number;
}

/** Lazily loaded tokenizer + ONNX session of one model folder. */
export class LoadedModel {
  private loaded: Loaded | undefined;
  private loading: Promise<Loaded> | undefined;
  private failure: string | undefined;

  /**
   * @param folder the checked folder
   * @param head which outputs the model has (token vectors or logits)
   * @param maxLength longest input in tokens, already capped by the folder's own limits
   * @param label who loads it, for error messages (`onnx embedder`, `cross-encoder`)
   */
  constructor(
    readonly folder: ModelFolder,
    private readonly head: ModelHead,
    private readonly maxLength: number,
    private readonly label: string,
  ) {}

  /** True once the session is loaded. */
  get isLoaded(): boolean {
    return this.loaded !== undefined;
  }

  /** Why the last load failed, until a load succeeds. */
  get lastFailure(): string | undefined {
    return this.failure;
  }

  /** Loads tokenizer and session; a no-op once loaded; concurrent calls share one load. */
  async load(): Promise<void> {
    await this.ready();
  }

  /** Encodes, pads and runs one batch; returns the model's float outputs by name. */
  async run(inputs: readonly ModelInput[]): Promise<{
    outputs: Record<string, FloatTensor>;
    batch: PaddedBatch;
  }> {
    const { tokenizer, model, maxLength } = await this.ready();
    let batch: PaddedBatch;
    try {
      const encodings = inputs.map(([text, pair]) =>
        truncate(tokenizer.encode(text, pair), maxLength),
      );
      batch = padBatch(encodings, tokenizer.padId);
      return { outputs: await model.run(batch), batch };
    } catch (error) {
      throw this.unavailable('inference_failed', 'could not run', error);
    }
  }

  /** Releases the session (after a load in progress settles); a later run loads it again. */
  async close(): Promise<void> {
    await this.loading?.catch(() => undefined);
    const loaded = this.loaded;
    this.loaded = undefined;
    await loaded?.model.dispose();
  }

  private ready(): Promise<Loaded> {
    if (this.loaded !== undefined) return Promise.resolve(this.loaded);
    this.loading ??= this.open()
      .then(
        (loaded) => {
          this.loaded = loaded;
          this.failure = undefined;
          return loaded;
        },
        (error: unknown) => {
          const wrapped = this.unavailable('load_failed', 'could not load', error);
          this.failure = wrapped.message;
          throw wrapped;
        },
      )
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  private async open(): Promise<Loaded> {
    const runtime = await import('./runtime.js');
    const { root, model: file } = this.folder;
    const [tokenizer, model] = await Promise.all([
      runtime.loadTokenizer(root),
      runtime.loadModel(root, file, this.head),
    ]);
    const maxLength = Math.min(this.maxLength, tokenizer.maxLength ?? Infinity);
    return { tokenizer, model, maxLength };
  }

  private unavailable(rule: string, what: string, error: unknown): EngramError {
    if (isEngramError(error)) return error;
    const why = error instanceof Error ? error.message : String(error);
    return new EngramError(
      'EMBEDDER_UNAVAILABLE',
      `${this.label}: ${what} the model in ${this.folder.root}: ${why}`,
      { rule, path: this.folder.root },
      { cause: error },
    );
  }
}
