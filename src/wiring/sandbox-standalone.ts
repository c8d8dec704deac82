import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config';
import { startMediaSandbox } from '../sandbox/media';
import { startToolhostSandbox } from '../sandbox/toolhost';

/**
 * Runs the embedded emulators on their own (until Ctrl-C) and writes the CA and the seeded tools'
 * client certificates under `<DATA_DIR>/sandbox/`, so another Deckhand (or curl) can be pointed at them
 * with TOOLHOST_INTERNAL_URL, TOOLHOST_CERT_DIR and TOOLHOST_CA_FILE.
 */
export async function runSandbox(config: Config): Promise<number> {
  const sandbox = await startToolhostSandbox({ stepMs: config.SANDBOX_STEP_MS });
  const media = await startMediaSandbox({ dataDir: config.DATA_DIR, stepMs: config.SANDBOX_STEP_MS });
  const dir = resolve(config.DATA_DIR, 'sandbox');
  const certDir = join(dir, 'certs');
  for (const tool of sandbox.ctx.tools) {
    const pair = sandbox.certFor(tool);
    mkdirSync(join(certDir, tool), { recursive: true });
    writeFileSync(join(certDir, tool, 'client.crt'), pair.cert);
    writeFileSync(join(certDir, tool, 'client.key'), pair.key, { mode: 0o600 });
  }
  writeFileSync(join(dir, 'ca.crt'), sandbox.ca);
  process.stdout.write(
    [
      'Tool hosting platform sandbox is running. Point Deckhand at it with:',
      `  TOOLHOST_URL=${sandbox.externalUrl}`,
      `  TOOLHOST_INTERNAL_URL=${sandbox.internalUrl}`,
      `  TOOLHOST_CERT_DIR=${certDir}`,
      `  TOOLHOST_CA_FILE=${join(dir, 'ca.crt')}`,
      `Tools: ${[...sandbox.ctx.tools].join(', ')}.`,
      'Media host sandbox:',
      `  MEDIA_API_URL=${media.apiUrl}`,
      `  MEDIA_API_KEY=${media.apiKey}`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await sandbox.close();
  await media.close();
  return 0;
}
