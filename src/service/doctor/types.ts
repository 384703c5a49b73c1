/** What `engram doctor` reports: one result per check, and what the checks share as they run. */
import type { Config } from '../../config/schema.js';
import type { ErrorCode } from '../../domain/errors.js';
import type { StoreInspection } from '../../store/inspect.js';

/** How a check came out: fine, worth a look, or broken. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** The checks, in the order they run and are reported. */
export const CHECK_NAMES = ['config', 'store', 'embedder', 'jobs', 'port', 'graph'] as const;

/** One of {@link CHECK_NAMES}. */
export type CheckName = (typeof CHECK_NAMES)[number];

/** What one check found. */
export interface CheckResult {
  name: CheckName;
  status: CheckStatus;
  /** One line: what was found. */
  finding: string;
  /** What to do about it (a command to run, a key to change); null when nothing is to be done. */
  fix: string | null;
  /** The error code of a failure (the CLI exits with its code), else null. */
  code: ErrorCode | null;
  /** Facts behind the finding (paths, versions, counts), for --json readers. */
  details: Record<string, unknown>;
  /** How long the check took. */
  ms: number;
}

/** A check's answer before its name and time are added. */
export type Finding = Omit<CheckResult, 'name' | 'ms' | 'fix' | 'code' | 'details'> &
  Partial<Pick<CheckResult, 'fix' | 'code' | 'details'>>;

/** Where the configuration came from, as the CLI chose it. */
export type ConfigSource = 'flag' | 'env' | 'local' | 'defaults';

/** What the doctor is given. */
export interface DoctorInput {
  /** The configuration file the CLI reads (none: `$ENGRAM_CONFIG`, or the built-in defaults). */
  configFile?: string;
  /** Why that file (or none). */
  configSource: ConfigSource;
  env: Record<string, string | undefined>;
}

/** What the checks share: the input, and what earlier checks learned. */
export interface DoctorContext extends DoctorInput {
  /** The loaded configuration, once the config check passed. */
  config?: Config;
  /** The look at the store, once the store check ran. */
  store?: StoreInspection;
}

/** One check: a small function of the context (it may add to it for later checks). */
export type Check = (ctx: DoctorContext) => Promise<Finding>;

/** The whole report. */
export interface DoctorReport {
  /** True when no check failed (warnings allowed). */
  ok: boolean;
  /** The code of the first failed check, or null. */
  code: ErrorCode | null;
  /** The configuration file used, or null for the built-in defaults. */
  config_file: string | null;
  checks: CheckResult[];
}
