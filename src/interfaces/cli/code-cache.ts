/**
 * The code cache of the `engram` command (launch.ts): runs the CLI, bundled into one CommonJS file
 * (dist/bin/engram-cli.cjs), with a V8 code cache. A short command otherwise spends
 * a quarter of its time compiling the same code again on every run; with the cache, V8 reads the
 * compiled code that an earlier run of the same command left. Node 20 has no code cache for ES
 * modules, hence one CommonJS file run through `vm.Script`, whose cache API it has.
 *
 * - One cache file per command word (`search`, `remember`, `hook`, ...), holding what that command
 *   compiled when it first ran, under `$XDG_CACHE_HOME/engram/code/<build>/` (else
 *   `~/.cache/engram/code/<build>/`); `<build>` is the bundle's content hash, so a new build never
 *   reads an old build's code. `ENGRAM_CODE_CACHE=off` turns the cache off; an absolute path there
 *   puts it in that folder instead.
 * - Only cache files and folders that belong to the user running engram and that nobody else may
 *   write are read, since a cache is code that runs.
 * - V8 itself refuses a cache made by another Node.js version or with other flags; a refused or
 *   missing cache is written again when the command ends, by a run that succeeded and was not
 *   asked for help (such runs stop early: their cache would hold a fraction of the command).
 *   Anything that goes wrong with the cache leaves the command running without it.
 *
 * - With `ENGRAM_DEBUG` set, one line on stderr says what became of the cache.
 *
 * It imports only Node's own modules: the CLI starts after it.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { constants, Script } from 'node:vm';

/** The first line of the bundle names its build and its command words: `//engram-build:<hex> commands=a,b`. */
const BUILD_LINE = /^\/\/engram-build:([0-9a-f]{8,64})(?: commands=([a-z,-]*))?\n/u;
/** Build folders unused for this long are removed when a new build writes its cache. */
const STALE_MS = 7 * 24 * 3600 * 1000;

type Env = Record<string, string | undefined>;

/** The folder of every build's code caches, or null when the cache is off. */
export function codeCacheRoot(env: Env = process.env): string | null {
  const setting = env.ENGRAM_CODE_CACHE;
  if (setting === 'off') return null;
  if (setting && isAbsolute(setting)) return setting;
  const base =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : join(homedir(), '.cache');
  return join(base, 'engram', 'code');
}

/**
 * The command word a run's cache is kept under: the first argument that is not an option or an
 * option's value, when it is one of the CLI's `words`; `_` for none or any other argument.
 */
export function commandWord(args: readonly string[], words: ReadonlySet<string>): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-c' || arg === '--config' || arg === '--space') i++;
    else if (!arg.startsWith('-')) return words.has(arg) ? arg : '_';
  }
  return '_';
}

/** True when `path` is a file (or folder) of this user that nobody else may write. */
function trusted(path: string, folder: boolean): boolean {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat || (folder ? !stat.isDirectory() : !stat.isFile())) return false;
  if (typeof process.getuid !== 'function') return true;
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

/** The cache's bytes when there is a trusted one, else undefined. */
function readCache(dir: string, file: string): Buffer | undefined {
  try {
    if (!trusted(dirname(dir), true) || !trusted(dir, true) || !trusted(file, false)) return;
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Removes other builds' cache folders that no run has used for a week. */
function removeStale(root: string, keep: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (!entry.isDirectory() || path === keep) continue;
    const stat = lstatSync(path);
    if (Date.now() - stat.mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** Writes the code the script compiled so far (at the command's end), atomically. */
function writeCache(script: Script, root: string, dir: string, file: string): void {
  try {
    const fresh = lstatSync(dir, { throwIfNoEntry: false }) === undefined;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!trusted(dirname(dir), true) || !trusted(dir, true)) return;
    const next = `${file}.${process.pid}.tmp`;
    writeFileSync(next, script.createCachedData(), { mode: 0o600 });
    renameSync(next, file);
    if (fresh) removeStale(root, dir);
  } catch {
    // A cache that cannot be written is only slower next time.
  }
}

/** Says on stderr what became of the cache, when ENGRAM_DEBUG asks for it. */
function debug(message: string): void {
  if (process.env.ENGRAM_DEBUG) process.stderr.write(`engram: code cache ${message}\n`);
}

/** Runs the bundled CLI (`bundle`, a CommonJS file) in this process, with its code cache. */
export function runBundle(bundle: string): void {
  const text = readFileSync(bundle, 'utf8');
  const [, build, words = ''] = BUILD_LINE.exec(text) ?? [];
  const root = codeCacheRoot();
  const dir = root && build ? join(root, build) : null;
  const word = commandWord(process.argv.slice(2), new Set(words.split(',')));
  const file = dir ? join(dir, `${word}.bin`) : null;
  const cachedData = dir && file ? readCache(dir, file) : undefined;
  // The same wrapper Node gives a CommonJS module, so the bundle runs as it would under require().
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) { ${text}\n})`,
    {
      filename: bundle,
      cachedData,
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    },
  );
  if (!root || !dir || !file) debug(root ? 'off: the bundle names no build' : 'off');
  else if (!cachedData || script.cachedDataRejected) {
    debug(
      `${cachedData ? 'refused by V8' : 'missing or not trusted'}: ${file} (written at exit if the command succeeds)`,
    );
    // Only a run that did its work compiled what the next runs of the command need: a failure
    // or a help text stops early, and its cache would hold a fraction of the command's code.
    const help = process.argv.slice(2).some((a) => a === '--help' || a === '-h');
    process.once('exit', (code) => {
      if (code === 0 && !help) writeCache(script, root, dir, file);
    });
  } else {
    debug(`used: ${file}`);
    try {
      // Marks the build as in use, so another build's first run leaves its folder alone.
      utimesSync(dir, new Date(), new Date());
    } catch {
      // Only the stale-folder clean-up reads the time.
    }
  }
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} };
  wrapper(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}
