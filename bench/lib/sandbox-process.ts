/**
 * `deckhand sandbox` as its own process (src/wiring/sandbox-standalone.ts): the emulators a deployment's
 * Deckhand is pointed at as real services — no emulator code in the measured Deckhand process.
 */
import { join } from 'node:path';
import { type Child, ROOT, spawnChild } from './processes';

/** A running `deckhand sandbox` and the variables that point a Deckhand at it. */
export interface SandboxProcess {
  child: Child;
  /** TOOLHOST_URL, TOOLHOST_INTERNAL_URL, TOOLHOST_CERT_DIR, TOOLHOST_CA_FILE, MEDIA_API_URL, MEDIA_API_KEY. */
  env: Record<string, string>;
}

/** The `NAME=value` lines `deckhand sandbox` prints. */
const PRINTED = [
  'TOOLHOST_URL',
  'TOOLHOST_INTERNAL_URL',
  'TOOLHOST_CERT_DIR',
  'TOOLHOST_CA_FILE',
  'MEDIA_API_URL',
  'MEDIA_API_KEY',
] as const;

/** Starts `deckhand sandbox` (compiled dist/) with its data under `dataDir`; resolves once it printed its addresses. */
export async function startSandboxProcess(dataDir: string): Promise<SandboxProcess> {
  const child = spawnChild([join(ROOT, 'bin', 'deckhand.mjs'), 'sandbox'], {
    env: { DECKHAND_RUN: 'dist', DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1' },
  });
  try {
    await child.waitForLine('Press Ctrl-C to stop', 60_000);
  } catch (error) {
    await child.stop();
    throw error;
  }
  const env: Record<string, string> = {};
  for (const name of PRINTED) {
    const value = new RegExp(`^\\s*${name}=(\\S+)$`, 'm').exec(child.output())?.[1];
    if (!value) {
      await child.stop();
      throw new Error(`deckhand sandbox did not print ${name}:\n${child.output().slice(-2000)}`);
    }
    env[name] = value;
  }
  return { child, env };
}
