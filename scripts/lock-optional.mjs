#!/usr/bin/env node
// The registry this project is built against serves only the linux-x64 builds of some packages, so
// `npm install` leaves the other platforms' optional binaries (Biome, msgpackr-extract) out of
// package-lock.json, and `npm ci` then refuses the lock file as out of sync. This script adds those
// entries back (optional, with their os/cpu, no tarball): `npm ci` skips them on this platform, as it
// would with a lock file made where the registry has them. Run it after changing dependencies.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function missing() {
  const dir = mkdtempSync(join(tmpdir(), 'lockcheck-'));
  copyFileSync('package.json', join(dir, 'package.json'));
  copyFileSync('package-lock.json', join(dir, 'package-lock.json'));
  // The workspace packages' manifests (packages/*): npm ci checks them against the lock file too.
  for (const name of existsSync('packages') ? readdirSync('packages') : []) {
    const manifest = join('packages', name, 'package.json');
    if (!existsSync(manifest)) continue;
    mkdirSync(join(dir, 'packages', name), { recursive: true });
    copyFileSync(manifest, join(dir, manifest));
  }
  try {
    execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts'], { cwd: dir, stdio: 'pipe' });
    return [];
  } catch (error) {
    const text = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    return [...text.matchAll(/Missing: (\S+)@(\S*) from lock file/g)].map((m) => m[1]);
  }
}

function platformOf(name) {
  const os =
    ['android', 'darwin', 'win32', 'linux', 'freebsd'].find((o) => name.includes(`-${o}`)) ?? undefined;
  const cpu = ['arm64', 'x64', 'arm', 'ia32'].find((c) => name.includes(`-${c}`)) ?? undefined;
  return {
    ...(os ? { os: [os] } : {}),
    ...(cpu ? { cpu: [cpu] } : {}),
    ...(name.endsWith('-musl') ? { libc: ['musl'] } : {}),
  };
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const names = missing();
for (const name of names) {
  const parent = Object.values(lock.packages).find((p) => p.optionalDependencies?.[name]);
  const version = parent?.optionalDependencies?.[name]?.replace(/^[\^~]/, '');
  if (!version) continue;
  lock.packages[`node_modules/${name}`] = { version, optional: true, ...platformOf(name) };
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
const left = missing();
console.log(
  `added ${names.length} optional entries; still missing: ${left.length ? left.join(', ') : 'none'}`,
);
process.exit(left.length ? 1 : 0);
