/**
 * The command line as an operator meets it (`node bin/deckhand.mjs`, compiled dist/): `--version`,
 * `--help`, one clear line and exit 2 on an unknown option or command (never Node's parseArgs text),
 * and lazy loading — `--help`, `--version`, `doctor` and `status` load no chat SDK and no emulator
 * (hono is the emulators' web framework), while `manifest` does load the SDKs (positive control).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args';
import { ensureBuilt } from '../support/build';
import { captureOutput, childEnv } from '../support/child-output';
import { importRecord } from '../support/import-record';

const ROOT = join(import.meta.dirname, '..', '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const SDKS = ['@slack/bolt', 'discord.js', 'grammy', 'hono'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  imports: string[];
}

/** Runs the compiled CLI, recording the packages it imports. */
async function deckhand(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Run> {
  const record = importRecord();
  const child = spawn(process.execPath, [...record.nodeArgs, join(ROOT, 'bin', 'deckhand.mjs'), ...args], {
    cwd,
    env: childEnv({ ...record.env, ...env }, { dist: true }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const imports = record.read();
  return { code, stdout: output.stdout(), stderr: output.stderr(), imports };
}

beforeAll(() => ensureBuilt(), 120_000);

describe('deckhand command line', () => {
  it('--version prints the version from package.json', async () => {
    const run = await deckhand(['--version']);
    expect(run).toMatchObject({ code: 0, stdout: `deckhand ${PKG.version}\n` });
  });

  it.each([
    [['--frobnicate'], 'deckhand: Unknown option "--frobnicate".'],
    [['start', '-x'], 'deckhand: Unknown option "-x".'],
    [['start', '--role'], 'deckhand: Option "--role" needs a value (e.g. --role web).'],
    [['--sandbox=yes'], 'deckhand: Option "--sandbox" takes no value.'],
    [['deploy'], 'deckhand: Unknown command "deploy".'],
    [['start', '--role', 'boss'], 'deckhand: --role must be web, worker or all, got "boss".'],
    [['shell', '--wait', '-5'], 'deckhand: --wait must be a number of seconds, 0 or more, got "-5".'],
    [['shell', '--wait'], 'deckhand: Option "--wait" needs a value (e.g. --wait 30).'],
    [['shell', '--as'], 'deckhand: Option "--as" needs a value (e.g. --as ada).'],
    [['shell', '--as', 'a b'], 'deckhand: --as needs a user name (letters, digits, . _ @ -), got "a b".'],
  ])('%j: one clear line, the usage, exit 2, no parseArgs text', async (args, line) => {
    const run = await deckhand(args);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`${line} Run \`deckhand --help\` for the commands.`);
    expect(run.stderr).toContain('Usage: deckhand <command> [options]');
    expect(run.stderr).not.toMatch(/positional argument|ERR_PARSE_ARGS|argument missing|at .*\.js:\d+/);
  });

  it('doctor --help names its exit codes, and doctor exits with the one it names', async () => {
    const help = await deckhand(['doctor', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('0  every check passed');
    expect(help.stdout).toContain('1  a check other than the configuration failed');
    expect(help.stdout).toContain('2  the configuration is incomplete or invalid');
    const halfSet = await deckhand(['doctor'], { SLACK_BOT_TOKEN: 'xoxb-1' });
    expect(halfSet.stdout).toMatch(/^✗ Slack settings:/m);
    expect(halfSet.code).toBe(2);
  }, 60_000);

  it('parses the options of a command', () => {
    expect(parseCommandLine(['start', '--role', 'web', '--sandbox'])).toMatchObject({
      kind: 'run',
      command: 'start',
      role: 'web',
      sandbox: true,
    });
    expect(parseCommandLine([])).toMatchObject({ kind: 'run', command: 'start', role: 'all' });
    expect(parseCommandLine(['help'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['shell', '--as', 'ada'])).toMatchObject({ kind: 'run', as: 'ada' });
  });

  it("--help, --version, doctor and status load no chat SDK and no emulator; manifest loads its platform's SDK only", async () => {
    const { host, port } = inject('redis');
    const help = await deckhand(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('doctor    Check the configuration');
    const version = await deckhand(['--version']);
    const doctor = await deckhand(['doctor'], { REDIS_URL: `redis://${host}:${port}` });
    expect(doctor.stdout).toContain('✓ Redis topology: one node: ');
    const status = await deckhand(['status'], {
      REDIS_URL: `redis://${host}:${port}`,
      REDIS_KEY_PREFIX: 'cli-test:',
    });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('QUEUE');
    for (const run of [help, version, doctor, status]) {
      expect(run.imports.filter((name) => SDKS.includes(name))).toEqual([]);
    }
    // The recorder sees an SDK when a command does load it: one platform's manifest loads that one only.
    const elsewhere = mkdtempSync(join(tmpdir(), 'deckhand-manifest-'));
    mkdirSync(join(elsewhere, 'manifest'));
    const manifest = await deckhand(['manifest', 'telegram'], {}, elsewhere);
    expect(manifest.code, manifest.stderr).toBe(0);
    expect(manifest.imports).toContain('grammy');
    expect(manifest.imports.filter((name) => name === '@slack/bolt' || name === 'discord.js')).toEqual([]);
    expect(doctor.imports).toContain('ioredis');
  });
});
