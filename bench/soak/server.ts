/**
 * The server of the soak benchmark: the engram service (`engram serve`'s HTTP app and job worker,
 * src/interfaces/http/service.ts) on the configuration file given as the only argument, in a
 * process of its own so that its resident memory is measured apart from the load. Prints
 * {"url": ...} once listening; stops gracefully on SIGTERM. Warnings and errors go to stderr.
 */
import { stderrLogger } from '../../src/domain/log.js';
import { startHttpService } from '../../src/interfaces/http/service.js';

const configFile = process.argv[2];
if (!configFile) {
  process.stderr.write('usage: server.ts <config.yaml>\n');
  process.exit(2);
}
const service = await startHttpService({ configFile, env: {}, log: stderrLogger('warn') });
process.stdout.write(`${JSON.stringify({ url: service.url })}\n`);
process.once('SIGTERM', () => {
  void service.close().then(() => process.exit(0));
});
