/** Small field builders the configuration schemas share. */
import { z } from 'zod';

/** Milliseconds, a whole number from 0 to `max`, with its default. */
export const ms = (def: number, max = 600_000) => z.number().int().min(0).max(max).default(def);
/** A share from 0 to 1, with its default. */
export const unit = (def: number) => z.number().min(0).max(1).default(def);
