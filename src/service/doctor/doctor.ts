/**
 * `engram doctor`: runs the checks in order (configuration, store, embedder, jobs, port, graph)
 * and reports each as ok, warn or fail with what to do. A check that needs the configuration is
 * not run when it is invalid; a check that throws is reported as failed. Nothing is created.
 */
import { isEngramError } from '../../domain/errors.js';
import { configCheck, configPath } from './config-check.js';
import { embedderCheck } from './embedder-check.js';
import { graphCheck } from './graph-check.js';
import { jobsCheck } from './jobs-check.js';
import { portCheck } from './port-check.js';
import { storeCheck } from './store-check.js';
import type {
  Check,
  CheckName,
  CheckResult,
  DoctorContext,
  DoctorInput,
  DoctorReport,
  Finding,
} from './types.js';

export type { CheckResult, CheckStatus, ConfigSource, DoctorInput, DoctorReport } from './types.js';
export { CHECK_NAMES } from './types.js';

/** The checks in the order they run. */
const CHECKS: readonly [CheckName, Check][] = [
  ['config', configCheck],
  ['store', storeCheck],
  ['embedder', embedderCheck],
  ['jobs', jobsCheck],
  ['port', portCheck],
  ['graph', graphCheck],
];

/** What a check that threw reports. */
function thrown(err: unknown): Finding {
  if (isEngramError(err))
    return {
      status: 'fail',
      finding: err.message,
      code: err.code,
      details: { error: err.toJSON() },
    };
  const message = err instanceof Error ? err.message : String(err);
  return {
    status: 'fail',
    finding: `the check itself failed: ${message}`,
    fix: 'run it again with ENGRAM_DEBUG=1 and report the output',
    code: 'INTERNAL',
  };
}

async function run(name: CheckName, check: Check, ctx: DoctorContext): Promise<CheckResult> {
  const started = performance.now();
  let finding: Finding;
  if (name !== 'config' && !ctx.config)
    finding = { status: 'warn', finding: 'not checked: the configuration is invalid' };
  else finding = await check(ctx).catch(thrown);
  return {
    name,
    status: finding.status,
    finding: finding.finding,
    fix: finding.fix ?? null,
    code: finding.status === 'fail' ? (finding.code ?? 'INTERNAL') : null,
    details: finding.details ?? {},
    ms: Math.round(performance.now() - started),
  };
}

/** Runs every check; the report's code is the first failed check's. */
export async function runDoctor(input: DoctorInput): Promise<DoctorReport> {
  const ctx: DoctorContext = { ...input };
  const checks: CheckResult[] = [];
  for (const [name, check] of CHECKS) checks.push(await run(name, check, ctx));
  const failed = checks.find((c) => c.status === 'fail');
  return {
    ok: failed === undefined,
    code: failed?.code ?? null,
    config_file: configPath(input) ?? null,
    checks,
  };
}
