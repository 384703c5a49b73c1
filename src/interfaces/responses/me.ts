/** Who the caller of the HTTP API is, as `/v1/me` returns it (the web console signs in with it). */
import { z } from 'zod';

/** A space the caller may use, and how many memories it holds (any status). */
const SpaceCountSchema = z
  .object({
    space: z.string(),
    items: z.number().int().meta({ description: 'Memories in the space, any status.' }),
  })
  .meta({ id: 'SpaceCount' });

/** The caller: token name and role, whether the server asks for tokens, and the spaces it may use. */
export const MeSchema = z
  .object({
    name: z
      .string()
      .nullable()
      .meta({ description: 'The token name; null on a server without tokens.' }),
    role: z.enum(['read', 'write', 'admin']),
    auth: z.boolean().meta({ description: 'Whether the server asks every request for a token.' }),
    default_space: z.string().meta({ description: 'The space used when a request names none.' }),
    every_space: z.boolean().meta({
      description:
        'Whether the token may use every space (`*`): store-wide routes (jobs, models) need that and the admin role.',
    }),
    spaces: z.array(SpaceCountSchema).meta({
      description:
        'The spaces this caller may use, ordered by name: those of its token (with their counts), or every space holding memories (and the default one) for a token of every space.',
    }),
  })
  .meta({ id: 'Me' });
