#!/usr/bin/env node
/**
 * The `engram` command's entry, bundled as dist/bin/engram.js: runs the bundled CLI beside it with
 * its code cache (code-cache.ts).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runBundle } from './code-cache.js';

runBundle(join(dirname(fileURLToPath(import.meta.url)), 'engram-cli.cjs'));
