/**
 * Where the web console tests find Chromium (Debian's `chromium`; never a downloaded browser), and
 * the notice `npm test` prints once when there is none. Without one the console tests are skipped,
 * except under CI=true, where they run and fail: CI installs it (.ci/run).
 */
import { existsSync } from 'node:fs';

/** Where the browser is. */
export const CHROMIUM = process.env.ENGRAM_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** True when the console tests run here. */
export const HAS_CHROMIUM = existsSync(CHROMIUM) || process.env.CI === 'true';

/** The notice printed once when the console tests are skipped. */
export const CHROMIUM_NOTICE = `Web console tests skipped: no Chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set ENGRAM_TEST_CHROMIUM, then run the tests again.`;
