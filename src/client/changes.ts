/**
 * Changes to one memory over HTTP, with the library's method names and answers: revise, forget,
 * restore (or restore a version), purge, pin, unpin, move, tag, set importance, supersede, and
 * relating two memories.
 */
import { type Calls, fields, seg } from './calls.js';
import type { ChangeOptions, Schemas } from './types.js';

/** A revision (`PATCH /memories/{id}`): body, title and/or tags, with its change options. */
export type ReviseInput = Schemas['ReviseBody'] & ChangeOptions;
/** The type of a relation `relate` makes or `unrelate` invalidates. */
export type RelationType = 'related' | 'derived_from';

/** The change methods of EngramClient. */
export interface ChangeMethods {
  /** A new version of body, title and/or tags (tags replace the set). */
  revise(id: string, input: ReviseInput): Promise<Schemas['Memory']>;
  /** Restores an old version's content as a new version. */
  restoreVersion(id: string, version: number, options?: ChangeOptions): Promise<Schemas['Memory']>;
  /** Hides a memory from recall (`DELETE /memories/{id}`); reversible with restore. */
  forget(id: string, options?: ChangeOptions): Promise<Schemas['Memory']>;
  /** Brings back a forgotten, archived, superseded or merged memory. */
  restore(id: string, options?: ChangeOptions): Promise<Schemas['Memory']>;
  /** Irreversibly deletes a memory's text, versions and vectors (audited; admin role). */
  purge(id: string, options?: ChangeOptions): Promise<{ id: string; purged: true }>;
  /** Pins (never decays, never merged away or archived automatically). */
  pin(id: string, options?: ChangeOptions): Promise<Schemas['Memory']>;
  /** Unpins. */
  unpin(id: string, options?: ChangeOptions): Promise<Schemas['Memory']>;
  /** Moves to another area. */
  move(id: string, area: string, options?: ChangeOptions): Promise<Schemas['Memory']>;
  /** Adds and removes tags. */
  tag(
    id: string,
    change: { add?: string[]; remove?: string[] },
    options?: ChangeOptions,
  ): Promise<Schemas['Memory']>;
  /** Sets importance in 0..1. */
  setImportance(
    id: string,
    importance: number,
    options?: ChangeOptions,
  ): Promise<Schemas['Memory']>;
  /** NEW supersedes OLD: OLD leaves recall as `superseded`, with a relation recording why. */
  supersede(
    oldId: string,
    newId: string,
    options?: ChangeOptions,
  ): Promise<Schemas['SupersedeResult']>;
  /** Relates FROM -> TO (`related` or `derived_from`); answers the live relations FROM -> TO. */
  relate(
    from: string,
    to: string,
    options?: ChangeOptions & { type?: RelationType },
  ): Promise<Schemas['Relation'][]>;
  /** Invalidates live relations FROM -> TO (kept in history, never deleted). */
  unrelate(
    from: string,
    to: string,
    options?: ChangeOptions & { type?: RelationType },
  ): Promise<void>;
}

/** The change methods over the given calls. */
export function changeMethods(calls: Calls): ChangeMethods {
  /** `POST /memories/{id}/<name>` with the change options and `extra` in the body. */
  const change = <T = Schemas['Memory']>(
    id: string,
    name: string,
    options: ChangeOptions | undefined,
    extra: object = {},
  ) =>
    calls.inSpace<T>(options, {
      method: 'POST',
      path: `/memories/${seg(id)}/${name}`,
      body: { ...fields(options), ...extra },
    });
  return {
    revise: (id, input) =>
      calls.inSpace(input, { method: 'PATCH', path: `/memories/${seg(id)}`, body: fields(input) }),
    restoreVersion: (id, version, options) => change(id, 'restore', options, { version }),
    forget: (id, options) =>
      calls.inSpace(options, {
        method: 'DELETE',
        path: `/memories/${seg(id)}`,
        query: fields(options),
      }),
    restore: (id, options) => change(id, 'restore', options),
    purge: (id, options) => change(id, 'purge', options),
    pin: (id, options) => change(id, 'pin', options),
    unpin: (id, options) => change(id, 'unpin', options),
    move: (id, area, options) => change(id, 'move', options, { area }),
    tag: (id, { add, remove }, options) => change(id, 'tags', options, { add, remove }),
    setImportance: (id, importance, options) => change(id, 'importance', options, { importance }),
    supersede: (oldId, newId, options) => change(oldId, 'supersede', options, { by: newId }),
    relate: async (from, to, options) => {
      const { type, ...rest } = fields(options);
      const answer = await calls.inSpace<Schemas['Relations']>(options, {
        method: 'POST',
        path: `/memories/${seg(from)}/relations`,
        body: { ...rest, to_id: to, type },
      });
      return answer.relations;
    },
    unrelate: async (from, to, options) => {
      await calls.inSpace(options, {
        method: 'DELETE',
        path: `/memories/${seg(from)}/relations/${seg(to)}`,
        query: fields(options),
      });
    },
  };
}
