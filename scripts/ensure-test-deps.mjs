#!/usr/bin/env node
// Makes sure `redis-server` is installed before the tests or the bot need it: installs it with
// apt-get where this user may (root, or passwordless sudo), otherwise stops with the exact command.
import { execFileSync, spawnSync } from 'node:child_process';

const has = (cmd, args = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

if (has('redis-server')) process.exit(0);

const install = 'apt-get update && apt-get install -y redis-server';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const canSudo = !isRoot && has('sudo', ['-n', 'true']);
if (has('apt-get', ['--version']) && (isRoot || canSudo)) {
  console.error('redis-server is missing; installing it with apt-get …');
  try {
    const prefix = isRoot ? '' : 'sudo -n ';
    execFileSync('sh', ['-c', `${prefix}apt-get update -qq && ${prefix}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server`], {
      stdio: 'inherit',
    });
  } catch {
    // reported below
  }
  if (has('redis-server')) process.exit(0);
}
console.error(`redis-server is not installed. Install it, then run the command again:\n\n  sudo ${install}\n\n(or set REDIS_URL to an existing Redis for \`npm start\`).`);
process.exit(1);
