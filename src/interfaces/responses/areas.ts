/**
 * Areas (§10) as the edges return them (the library's shapes in src/hygiene/areas.ts and
 * src/hygiene/consolidation.ts): the areas of a space with their counts, and a fold's result.
 */
import { z } from 'zod';

/** One area and how many live memories it holds. */
const AreaCountSchema = z
  .object({
    area: z.string(),
    items: z.number().int().meta({ description: 'Live memories in the area.' }),
  })
  .meta({ id: 'AreaCount' });

/** The areas of a space that hold live memories, ordered by name. */
export const AreaListSchema = z
  .object({ areas: z.array(AreaCountSchema) })
  .meta({ id: 'AreaList' });

/** What a fold moved or, in a dry run, would move. */
export const AreaFoldResultSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    dry_run: z.boolean().meta({ description: 'True: nothing was changed; `items` would move.' }),
    items: z.array(z.string()).meta({
      description:
        'Ids of the memories moved (or that would move); each returns to `from` with restore.',
    }),
  })
  .meta({ id: 'AreaFoldResult' });
