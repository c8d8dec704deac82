/**
 * System packages Deckhand runs on (redis-server for the zero-configuration start; redis-server,
 * chromium and a chat network, inspircd + atheme-services, for the tests): find what is missing and install it with apt-get where this user may
 * (root, or passwordless sudo), saying what is being installed; otherwise give the exact commands.
 * One implementation for `npm start` and `npm test` (`scripts/ensure-test-deps.ts`).
 */
import { execFileSync, spawnSync } from 'node:child_process';

/** A command Deckhand needs and the Debian package that provides it. */
export interface SystemPackage {
  command: string;
  pkg: string;
  /** Arguments with which the command exits 0 when it is installed (default `--version`). */
  probeArgs?: string[];
}

/** What {@link ensurePackages} did. */
export type EnsureResult =
  | { ok: true; installed: string[] }
  | { ok: false; packages: string[]; reason: 'no-permission' | 'install-failed' };

/** True when `command` runs (`command --version` exits 0). */
export function hasCommand(command: string, args: string[] = ['--version']): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** The packages of `wanted` whose command is missing. */
export function missingPackages(wanted: SystemPackage[]): SystemPackage[] {
  return wanted.filter(({ command, probeArgs }) => !hasCommand(command, probeArgs));
}

/** The exact commands that install `packages`, as root and with sudo. */
export function installCommands(packages: string[]): { asRoot: string; withSudo: string } {
  const list = packages.join(' ');
  return {
    asRoot: `apt-get update && apt-get install -y ${list}`,
    withSudo: `sudo apt-get update && sudo apt-get install -y ${list}`,
  };
}

/** The install commands as lines to print under a sentence that says why. */
export function installHint(packages: string[]): string {
  const { asRoot, withSudo } = installCommands(packages);
  return `  as root:    ${asRoot}\n  with sudo:  ${withSudo}`;
}

/**
 * Installs the missing ones of `wanted` with apt-get (`apt-get update` first) when this user is root
 * or has passwordless sudo, writing one line that says what is being installed to `say`.
 */
export function ensurePackages(wanted: SystemPackage[], say: (line: string) => void): EnsureResult {
  const missing = missingPackages(wanted);
  if (missing.length === 0) return { ok: true, installed: [] };
  const packages = missing.map((m) => m.pkg);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const canSudo = !isRoot && hasCommand('sudo', ['-n', 'true']);
  if (!hasCommand('apt-get') || !(isRoot || canSudo)) return { ok: false, packages, reason: 'no-permission' };
  say(`Installing ${packages.join(' ')} with apt-get (apt-get update first) …`);
  const sudo = isRoot ? [] : ['sudo', '-n'];
  try {
    const run = (args: string[]) => {
      const [file, ...rest] = [...sudo, ...args];
      execFileSync(file as string, rest, {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    };
    // Wait for another apt/dpkg run to finish instead of failing on its lock.
    const lock = ['-o', 'DPkg::Lock::Timeout=300'];
    run(['apt-get', ...lock, 'update', '-qq']);
    run(['apt-get', ...lock, 'install', '-y', '-qq', ...packages]);
  } catch {
    // judged below by whether the commands now run
  }
  if (missingPackages(missing).length > 0) return { ok: false, packages, reason: 'install-failed' };
  return { ok: true, installed: packages };
}
