/**
 * A real IRC network on 127.0.0.1 for one test file: InspIRCd 3 linked to Atheme services (the Debian
 * packages `inspircd` and `atheme-services`), on free ports, in a temporary directory. Ready means
 * services have finished synching with the ircd (only then does the `sasl` capability appear).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { athemeConf, type IrcNetworkLayout, inspircdConf } from './irc-configs';
import { freePort } from './redis-server';

/** A running test network. */
export interface TestIrcNetwork {
  host: string;
  /** Plain-text client port. */
  port: number;
  /** TLS client port. */
  tlsPort: number;
  /** The network's self-signed certificate (PEM), for clients' `ca`. */
  certificate: string;
  /** The fakelag burst (lines a client may send at once before being held to one a second). */
  floodThreshold: number;
  /** Stops the ircd (services wait to re-link), resolving once it has exited. */
  stopIrcd(): Promise<void>;
  /** Starts the ircd again on the same ports; resolves once services have re-linked. */
  startIrcd(): Promise<void>;
  /** The ircd's log so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

/** Options of {@link startTestIrcNetwork}. */
export interface TestIrcOptions {
  /** Fakelag threshold (default 10, InspIRCd's default). */
  floodThreshold?: number;
}

const READY_TIMEOUT_MS = 20_000;

/** Starts a daemon with cwd = `dir` and no core dumps (InspIRCd 3.15 segfaults on exit with gnutls). */
function daemon(dir: string, command: string, args: string[]): ChildProcess {
  const line = [command, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
  return spawn('bash', ['-c', `ulimit -c 0; exec ${line}`], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Waits until `file` holds `pattern` more than `seen` times; rejects when `child` exits first. */
async function occurrence(file: string, pattern: string, seen: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (text.split(pattern).length - 1 > seen) return;
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`IRC daemon exited (${child.exitCode ?? child.signalCode}) before "${pattern}"`);
    if (Date.now() > deadline) throw new Error(`IRC network not ready after ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function count(file: string, pattern: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split(pattern).length - 1 : 0;
}

async function kill(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function certificate(dir: string): void {
  mkdirSync(join(dir, 'tls'));
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=irc.local',
    '-addext',
    'subjectAltName=DNS:irc.local,DNS:localhost,IP:127.0.0.1',
    '-keyout',
    join(dir, 'tls/key.pem'),
    '-out',
    join(dir, 'tls/cert.pem'),
  ]);
  if (made.status !== 0) throw new Error(`openssl could not make the test certificate: ${made.stderr}`);
}

/** Starts InspIRCd and Atheme; resolves once services are linked. */
export async function startTestIrcNetwork(options: TestIrcOptions = {}): Promise<TestIrcNetwork> {
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-irc-'));
  for (const sub of ['data', 'logs', 'run', 'atheme']) mkdirSync(join(dir, sub));
  certificate(dir);
  const layout: IrcNetworkLayout = {
    dir,
    port: await freePort(),
    tlsPort: await freePort(),
    linkPort: await freePort(),
    linkPassword: randomBytes(12).toString('hex'),
    operPassword: randomBytes(12).toString('hex'),
    floodThreshold: options.floodThreshold ?? 10,
  };
  writeFileSync(join(dir, 'inspircd.conf'), inspircdConf(layout));
  writeFileSync(join(dir, 'atheme.conf'), athemeConf(layout));
  const athemeLog = join(dir, 'logs/atheme.log');
  const synched = 'finished synching with uplink';
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let ircd: ChildProcess | undefined;
  let services: ChildProcess | undefined;
  const startIrcd = () => {
    const args = ['--nofork', '--config', join(dir, 'inspircd.conf'), ...(asRoot ? ['--runasroot'] : [])];
    ircd = daemon(dir, 'inspircd', args);
  };
  const network: TestIrcNetwork = {
    host: '127.0.0.1',
    port: layout.port,
    tlsPort: layout.tlsPort,
    certificate: '',
    floodThreshold: layout.floodThreshold,
    async stopIrcd() {
      await kill(ircd);
    },
    async startIrcd() {
      const before = count(athemeLog, synched);
      startIrcd();
      await occurrence(athemeLog, synched, before, services as ChildProcess);
    },
    log: () => {
      const file = join(dir, 'logs/inspircd.log');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    },
    async stop() {
      await kill(services);
      await kill(ircd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    startIrcd();
    services = daemon(dir, 'atheme-services', [
      '-n',
      '-c',
      join(dir, 'atheme.conf'),
      '-D',
      join(dir, 'atheme'),
      '-l',
      athemeLog,
      '-p',
      join(dir, 'run/atheme.pid'),
    ]);
    await occurrence(athemeLog, synched, 0, services);
  } catch (error) {
    const logs = `${network.log()}\n${existsSync(athemeLog) ? readFileSync(athemeLog, 'utf8') : ''}`;
    await network.stop();
    throw new Error(`${(error as Error).message}\n${logs.slice(-3000)}`);
  }
  network.certificate = readFileSync(join(dir, 'tls/cert.pem'), 'utf8');
  return network;
}
