import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { SourcehostSandbox, ToolhostSandbox } from '@deckhand/sandbox';
import type { Config } from '../config';
import { startConfiguredEmulators, stopConfiguredEmulators } from './emulators';
import type { ServiceName } from './service-modes';

/** Set by `start --sandbox` (sandbox-child.ts): which emulators to run, comma-separated (default: all). */
export const SANDBOX_SERVICES_VARIABLE = 'DECKHAND_SANDBOX_SERVICES';
/** Set by `start --sandbox`: the parent talks over stdin (`hook <url> <secret>`); stdin's end stops the emulators. */
export const SANDBOX_PARENT_VARIABLE = 'DECKHAND_SANDBOX_PARENT';
/** The placeholder in the printed `Tool web addresses:` line. */
export const TOOL_PLACEHOLDER = '<tool>';

const ALL: ServiceName[] = ['toolhost', 'media', 'calendar', 'sourcehost', 'phabricator'];

/** The services named in `value` (all when unset). */
function wanted(value: string | undefined): Set<ServiceName> {
  if (!value) return new Set(ALL);
  return new Set(ALL.filter((name) => value.split(',').includes(name)));
}

/**
 * Runs the embedded emulators on their own (until Ctrl-C) and prints the variables that point a
 * Deckhand at them as real services; the tool platform's CA and the seeded tools' client certificates
 * are written under `<DATA_DIR>/sandbox/`. `start --sandbox` with a chat platform runs this as its
 * child process (src/wiring/sandbox-child.ts).
 */
export async function runSandbox(config: Config, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const emulators = await startConfiguredEmulators(config, wanted(env[SANDBOX_SERVICES_VARIABLE]));
  const { toolhost, media, calendar, sourcehost, phabricator } = emulators;
  const lines: string[] = [];
  if (toolhost) lines.push(...toolhostLines(toolhost, config.DATA_DIR));
  if (media)
    lines.push('Media host sandbox:', `  MEDIA_API_URL=${media.apiUrl}`, `  MEDIA_API_KEY=${media.apiKey}`);
  if (calendar) {
    lines.push(
      'Event calendar sandbox:',
      `  CALENDAR_URL=${calendar.restRoot}`,
      `  CALENDAR_NAMESPACE=${calendar.namespace}`,
      `  CALENDAR_USER=${calendar.credentials.user}`,
      // Quoted: an application password has spaces (a .env file and sandbox-child.ts read it whole).
      `  CALENDAR_APP_PASSWORD="${calendar.credentials.appPassword}"`,
    );
  }
  if (sourcehost) {
    lines.push(
      'Source host sandbox:',
      `  SOURCEHOST_URL=${sourcehost.apiUrl}`,
      `  SOURCEHOST_WEB_URL=${sourcehost.webUrl}`,
      `  SOURCEHOST_CLIENT_ID=${sourcehost.clientId}`,
      `  SOURCEHOST_CLIENT_SECRET=${sourcehost.clientSecret}`,
    );
  }
  if (phabricator) {
    lines.push(
      'Phabricator sandbox:',
      `  PHABRICATOR_URL=${phabricator.url}`,
      `  PHABRICATOR_TOKEN=${phabricator.token}`,
    );
  }
  process.stdout.write([...lines, 'Press Ctrl-C to stop.', ''].join('\n'));
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    if (env[SANDBOX_PARENT_VARIABLE]) listenToParent(process.stdin, sourcehost, done);
  });
  // Stopping is best effort: the process ends next either way.
  await stopConfiguredEmulators(emulators).catch(() => undefined);
  return 0;
}

/** Writes the certificates and returns the tool platform's lines. */
function toolhostLines(sandbox: ToolhostSandbox, dataDir: string): string[] {
  const dir = resolve(dataDir, 'sandbox');
  const certDir = join(dir, 'certs');
  for (const tool of sandbox.ctx.tools) {
    const pair = sandbox.certFor(tool);
    mkdirSync(join(certDir, tool), { recursive: true });
    writeFileSync(join(certDir, tool, 'client.crt'), pair.cert);
    writeFileSync(join(certDir, tool, 'client.key'), pair.key, { mode: 0o600 });
  }
  writeFileSync(join(dir, 'ca.crt'), sandbox.ca);
  return [
    'Tool hosting platform sandbox is running. Point Deckhand at it with:',
    `  TOOLHOST_URL=${sandbox.externalUrl}`,
    `  TOOLHOST_INTERNAL_URL=${sandbox.internalUrl}`,
    `  TOOLHOST_CERT_DIR=${certDir}`,
    `  TOOLHOST_CA_FILE=${join(dir, 'ca.crt')}`,
    `Tools: ${[...sandbox.ctx.tools].join(', ')}.`,
    `Tool web addresses: ${sandbox.publicUrlFor(TOOL_PLACEHOLDER)}`,
  ];
}

/**
 * The parent Deckhand's requests on stdin: `hook <url> <secret>` registers Deckhand's webhook with
 * the source host emulator (as the in-process sandbox does once Deckhand listens, accounts.ts). The
 * end of stdin means the parent is gone: the emulators stop rather than outlive it.
 */
export function listenToParent(
  stdin: NodeJS.ReadableStream,
  sourcehost: Pick<SourcehostSandbox, 'state' | 'controls'> | undefined,
  stop: () => void,
): void {
  const input = createInterface({ input: stdin });
  input.on('line', (line) => {
    const [verb, url, secret] = line.trim().split(' ');
    if (
      verb === 'hook' &&
      url &&
      secret &&
      sourcehost &&
      !sourcehost.state.hooks.some((h) => h.url === url)
    ) {
      sourcehost.controls.addHook(url, secret);
    }
  });
  input.on('close', stop);
}
