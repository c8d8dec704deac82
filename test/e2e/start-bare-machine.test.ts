/**
 * `npm start` on a machine without redis-server (the fresh-clone issue): as root (or with passwordless
 * sudo) it says what it installs, runs `apt-get update` then the install, and reaches the terminal
 * chat, where `/deploy mytool` ends successful; as a user who may not install, it prints the exact
 * commands and exits 1 without a stack trace; with a chat platform configured it installs nothing and
 * names REDIS_URL. apt-get and sudo are stand-ins on a PATH that has no redis-server: the stand-in
 * apt-get "installs" by linking the real redis-server into that PATH, and records its calls. Run as
 * root, the unprivileged case runs as uid 65534 from a copy of the checkout it can read (a clone in
 * root's private home is not).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messages, spawnDeckhand } from '../support/cli';
import { checkoutFor } from '../support/readable-copy';

const REAL_REDIS = '/usr/bin/redis-server';
const isRoot = process.getuid?.() === 0;

/** A bin directory with node and sh only (no redis-server), optionally with stand-in apt-get and sudo. */
function bareBin(withInstallers: boolean): { bin: string; aptLog: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-bare-'));
  chmodSync(dir, 0o777);
  const bin = join(dir, 'bin');
  const aptLog = join(dir, 'apt.log');
  writeFileSync(aptLog, '');
  chmodSync(aptLog, 0o666);
  mkdirSync(bin, { mode: 0o755 });
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync('/bin/sh', join(bin, 'sh'));
  if (withInstallers) {
    script(
      join(bin, 'apt-get'),
      `echo "apt-get $*" >> ${aptLog}
[ "$1" = -o ] && shift 2
case "$1" in
  --version|update) exit 0 ;;
  install) for p in "$@"; do [ "$p" = redis-server ] && /bin/ln -sf ${REAL_REDIS} ${bin}/redis-server; done; exit 0 ;;
esac
exit 1`,
    );
    script(join(bin, 'sudo'), `[ "$1" = -n ] && shift\necho "sudo $*" >> ${aptLog}\nexec "$@"`);
  }
  return { bin, aptLog, dir };
}

function script(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** Runs `deckhand start` (what `npm start` runs) with `stdin` as the script and only `bin` on PATH. */
function start(
  bin: string,
  dir: string,
  stdin: string,
  options: { env?: Record<string, string>; as?: { uid: number; gid: number; root: string } } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = {
    PATH: bin,
    HOME: dir,
    DATA_DIR: join(dir, 'data'),
    PORT: '0',
    HOST: '127.0.0.1',
    SANDBOX_STEP_MS: '20',
    SHELL_USER: 'tester',
    ...options.env,
  };
  return spawnDeckhand(['start', '--wait', '60'], env, stdin, options.as ?? {});
}

const STACK = /\n\s+at .+:\d+:\d+|sonic boom/;

describe('npm start on a machine without redis-server', () => {
  it('installs it (apt-get update first, saying so), reaches the chat and deploys', async () => {
    const { bin, aptLog, dir } = bareBin(true);
    const run = await start(bin, dir, '/deploy mytool\n');
    expect(run.stderr).toContain('Installing redis-server with apt-get (apt-get update first)');
    const calls = readFileSync(aptLog, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('apt-get '));
    const update = calls.findIndex((l) => /^apt-get( -o \S+)? update/.test(l));
    const install = calls.findIndex((l) => /^apt-get( -o \S+)? install .*redis-server/.test(l));
    expect(update).toBeGreaterThanOrEqual(0);
    expect(install).toBeGreaterThan(update);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const last = messages(run.stdout).at(-1) ?? '';
    expect(last).toContain('[done] Deploy mytool');
    expect(last).toMatch(/Status\s+successful/);
    expect(run.stderr).not.toMatch(STACK);
  }, 120_000);

  it('as a user who may not install: prints the exact commands, exits 1, no stack trace', async (ctx) => {
    const { bin, dir } = bareBin(false);
    const checkout = isRoot ? checkoutFor(65534, 65534) : undefined;
    if (checkout && 'cannot' in checkout) {
      ctx.skip(`cannot run Deckhand as an unprivileged user here: ${checkout.cannot}`);
      return;
    }
    const as = checkout ? { uid: 65534, gid: 65534, root: checkout.root } : undefined;
    let run: Awaited<ReturnType<typeof start>>;
    try {
      run = await start(bin, dir, '/deploy mytool\n', as ? { as } : {});
    } finally {
      checkout?.dispose();
    }
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('as root:    apt-get update && apt-get install -y redis-server');
    expect(run.stderr).toContain('with sudo:  sudo apt-get update && sudo apt-get install -y redis-server');
    expect(run.stderr).toContain('REDIS_URL');
    expect(run.stderr).not.toMatch(STACK);
    expect(run.stdout).toBe('');
  }, 240_000);

  it('with a chat platform configured: installs nothing, names REDIS_URL and exits 2', async () => {
    const { bin, aptLog, dir } = bareBin(true);
    const run = await start(bin, dir, '', {
      env: { TELEGRAM_BOT_TOKEN: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/REDIS_URL is not set and redis-server is not installed.*telegram/);
    expect(readFileSync(aptLog, 'utf8')).not.toContain('install');
    expect(run.stderr).not.toMatch(STACK);
  }, 60_000);
});
