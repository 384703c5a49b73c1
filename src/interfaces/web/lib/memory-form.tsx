/**
 * View helpers the memory and browse pages share: a memory's short label, the status groups that
 * decide which actions apply, the space's areas as input suggestions, and running one change per
 * memory where a failing item fails alone.
 */
import { api, call, type Schemas } from './api';
import { useAsync } from './ui';

type Memory = Schemas['Memory'];
type Status = Memory['status'];

/** Statuses in which a memory takes part in recall (what a listing shows by default). */
export const LIVE: readonly Status[] = ['candidate', 'active', 'challenged'];

/** Statuses a restore brings back from. */
export const RESTORABLE: readonly Status[] = ['forgotten', 'archived', 'superseded', 'merged'];

/** The first line of a text, cut to `max` characters. */
export function firstLine(body: string, max = 140): string {
  const line = body.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** What names a memory in a list or a heading: its title, else the first line of its body. */
export function memoryLabel(m: { title: string | null; body: string }, max = 140): string {
  return m.title?.trim() ? m.title.trim() : firstLine(m.body, max) || '(empty memory)';
}

/** The areas of the space that hold live memories (for suggestions; empty when unavailable). */
export function useAreas(space: string): string[] {
  const areas = useAsync(
    async () =>
      (await call(api.GET('/v1/spaces/{space}/areas', { params: { path: { space } } }))).areas,
    [space],
  );
  return areas.data?.map((a) => a.area) ?? [];
}

/** Suggestions for an area input (`list={id}`). */
export function AreaOptions(props: { id: string; areas: readonly string[] }) {
  return (
    <datalist id={props.id}>
      {props.areas.map((a) => (
        <option key={a} value={a} />
      ))}
    </datalist>
  );
}

/** The outcome of one item of a change applied to many. */
export interface ItemOutcome {
  id: string;
  error?: unknown;
}

/**
 * Runs `work` once per id, at most `width` at a time; every item runs even when others fail, and
 * each outcome says whether its own call failed.
 */
export async function eachItem(
  ids: readonly string[],
  work: (id: string) => Promise<unknown>,
  width = 6,
): Promise<ItemOutcome[]> {
  const outcomes: ItemOutcome[] = ids.map((id) => ({ id }));
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const index = next++;
      try {
        await work(ids[index]!);
      } catch (error) {
        outcomes[index] = { id: ids[index]!, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, ids.length) }, lane));
  return outcomes;
}
