/** The filter of a listing or a recall: which items of a space qualify (§3.3). */
import type { Kind, Status } from './types.js';

/** Filters shared by list and every recall channel (§3.3). */
export interface ItemFilter {
  space: string;
  statuses: readonly Status[];
  kinds?: readonly Kind[];
  /** Area prefixes: `projects` matches `projects` and `projects/...`. */
  areas?: readonly string[];
  /** Items must carry every tag. */
  tags?: readonly string[];
  pinned?: boolean;
  created_after?: number;
  created_before?: number;
  updated_after?: number;
  updated_before?: number;
}
