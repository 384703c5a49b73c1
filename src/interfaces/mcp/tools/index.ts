/**
 * The table of MCP tool groups the server installs. Adding tools: write one file exporting a
 * ToolGroup (see docs/mcp.md) and add it here.
 */
import type { ToolGroup } from '../tool.js';
import { dormantTools } from './dormant.js';
import { dreamTools } from './dreams.js';
import { lifecycleTools } from './lifecycle.js';
import { memoryTools } from './memories.js';
import { recallTools } from './recall.js';
import { relationTools } from './relations.js';
import { sessionTools } from './sessions.js';
import { statusTools } from './status.js';

/** Every tool group of `engram mcp`, in listing order. */
export const TOOL_GROUPS: readonly ToolGroup[] = [
  memoryTools,
  recallTools,
  relationTools,
  statusTools,
  lifecycleTools,
  dormantTools,
  sessionTools,
  dreamTools,
];
