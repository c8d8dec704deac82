#!/usr/bin/env node
// Makes sure the system packages the tests need are installed: redis-server (every queue and state
// test runs on a real one) and chromium (the browser tests of the OAuth and secret pages). Installs
// them with apt-get where this user may (root, or passwordless sudo); otherwise stops with the exact
// command to run.
import { execFileSync, spawnSync } from 'node:child_process';

const has = (cmd, args = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const needed = [
  { command: 'redis-server', pkg: 'redis-server' },
  { command: 'chromium', pkg: 'chromium' },
].filter(({ command }) => !has(command));
if (needed.length === 0) process.exit(0);

const packages = needed.map((n) => n.pkg).join(' ');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const canSudo = !isRoot && has('sudo', ['-n', 'true']);
if (has('apt-get', ['--version']) && (isRoot || canSudo)) {
  console.error(`Installing ${packages} with apt-get …`);
  const sudo = isRoot ? '' : 'sudo -n ';
  try {
    execFileSync(
      'sh',
      [
        '-c',
        `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`,
      ],
      { stdio: 'inherit' },
    );
  } catch {
    // reported below
  }
  if (needed.every(({ command }) => has(command))) process.exit(0);
}
console.error(
  `The tests need ${packages}. Install, then run the command again:\n\n  sudo apt-get update && sudo apt-get install -y ${packages}\n`,
);
process.exit(1);
