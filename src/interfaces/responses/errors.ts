/** The error envelope every edge answers with: an HTTP error body, an MCP tool error's content. */
import { z } from 'zod';

import { ERROR_CODES } from '../../domain/errors.js';

/** `{error: {code, message, details}}`: what went wrong, and the field and rule when it is the caller's. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  .meta({ id: 'Error' });

/** The error envelope. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
