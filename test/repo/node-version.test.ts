/**
 * `engines.node` is the real minimum (vite, which vitest runs on, needs ^20.19 or >=22.12; undici
 * needs >=20.18.1), and an older Node gets one clear line from bin/check-node.mjs before any
 * dependency loads. The check is run on a copy with a package.json whose range this Node misses
 * (the failing case) and one it meets (the control).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function runCheck(range: string): { status: number | null; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-node-'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(ROOT, 'bin', 'check-node.mjs'), join(dir, 'bin', 'check-node.mjs'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ engines: { node: range } }));
  const run = spawnSync(process.execPath, [join(dir, 'bin', 'check-node.mjs')], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('Node version check', () => {
  it('declares the minimum the locked dependencies need', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe('^20.19.0 || >=22.12.0');
  });

  it('an older Node gets one clear line and exit 1', () => {
    const run = runCheck('>=99.0.0');
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`Deckhand needs Node >=99.0.0; this is Node ${process.versions.node}.`);
  });

  it('this Node passes the declared range and a caret range of its own major', () => {
    const [major] = process.versions.node.split('.');
    expect(runCheck('^20.19.0 || >=22.12.0').status).toBe(0);
    expect(runCheck(`^${major}.0.0`).status).toBe(0);
    expect(runCheck(`^${Number(major) - 1}.0.0`).status).toBe(1);
  });
});
