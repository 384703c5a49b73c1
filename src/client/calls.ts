/**
 * What the client's method groups share: sending a request to a route of a space (the space
 * resolved per call) or outside spaces, with the call's options split off its fields.
 */
import type { ClientRequest, Transport } from './transport.js';
import type { CallOptions, SpaceOptions } from './types.js';

/** A path segment, encoded. */
export const seg = (value: string | number): string => encodeURIComponent(String(value));

/** The fields of an options object without the per-call ones (space, signal, time limit). */
export function fields<T extends SpaceOptions>(
  options: T | undefined,
): Omit<T, 'space' | 'signal' | 'timeoutMs'> {
  const { space: _space, signal: _signal, timeoutMs: _timeout, ...rest } = options ?? ({} as T);
  return rest;
}

/** The call options of an options object. */
export function callOf(options: CallOptions | undefined): CallOptions {
  return { signal: options?.signal, timeoutMs: options?.timeoutMs };
}

/** How the method groups reach the server. */
export class Calls {
  constructor(
    private readonly transport: Transport,
    private readonly spaceOf: (given: string | undefined, call: CallOptions) => Promise<string>,
    /** The write session of the client's remembers (`Engram-Session`), if any. */
    readonly session: string | undefined,
  ) {}

  /** Sends a request to a route of a space: `request.path` goes after `/v1/spaces/{space}`. */
  async inSpace<T>(options: SpaceOptions | undefined, request: ClientRequest): Promise<T> {
    const call = callOf(options);
    const space = await this.spaceOf(options?.space, call);
    return this.transport.send<T>(
      { ...request, path: `/v1/spaces/${seg(space)}${request.path}` },
      call,
    );
  }

  /** Sends a request to a route outside spaces (`request.path` from `/v1`). */
  send<T>(options: CallOptions | undefined, request: ClientRequest): Promise<T> {
    return this.transport.send<T>(request, callOf(options));
  }
}
