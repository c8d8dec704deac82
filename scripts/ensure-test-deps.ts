/**
 * Makes sure the system packages the tests need are installed: redis-server (every queue and state
 * test runs on a real one, the Sentinel tests run it as sentinels too), redis-cli (the Cluster tests), chromium (the browser tests of the OAuth and secret pages) and
 * inspircd + atheme-services (a real chat network: InspIRCd linked to Atheme services). Installs
 * them where this user may (see src/system-packages.ts); otherwise stops with the exact commands.
 */
import { ensurePackages, installHint } from '../src/system-packages';

const result = ensurePackages(
  [
    { command: 'redis-server', pkg: 'redis-server' },
    // redis-cli builds the test Redis Cluster (`--cluster create`); the sentinels are redis-server --sentinel.
    { command: 'redis-cli', pkg: 'redis-tools' },
    { command: 'chromium', pkg: 'chromium' },
    // A real chat network for its adapter's tests: InspIRCd linked to Atheme services.
    { command: 'inspircd', pkg: 'inspircd' },
    { command: 'atheme-services', pkg: 'atheme-services', probeArgs: ['-v'] },
  ],
  (line) => process.stderr.write(`${line}\n`),
);
if (!result.ok) {
  const why = result.reason === 'install-failed' ? 'could not be installed' : 'are missing';
  process.stderr.write(
    `The tests need ${result.packages.join(' ')}, which ${why}. Install them, then run the command again:\n\n${installHint(result.packages)}\n`,
  );
  process.exit(1);
}
