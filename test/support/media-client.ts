import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MediaSandbox, startMediaSandbox } from '@deckhand/sandbox/media';
import type { MediaAccount } from '@deckhand/sandbox/media/state';
import { BotWideKeySource, type MediaClient, MediaService } from '../../src/services/media';
import { closeAll, useStarted } from './started';

/** A media emulator, a media service on it, one user's client and the emulator's account. */
export interface MediaClientRig {
  sandbox: MediaSandbox;
  service: MediaService;
  client: MediaClient;
  account: MediaAccount;
}

/**
 * Starts a media emulator and a client on it before the file's tests, hands them to `onStarted`,
 * and closes both after the tests. The 10-requests-a-second limit is off: a test about it switches
 * it on.
 */
export function useMediaClient(onStarted: (rig: MediaClientRig) => void): void {
  useStarted(async () => {
    const sandbox = await startMediaSandbox({
      dataDir: mkdtempSync(join(tmpdir(), 'deckhand-media-client-')),
      stepMs: 20,
      rateLimitPerSecond: 0,
    });
    const service = new MediaService({
      apiUrl: sandbox.apiUrl,
      keys: new BotWideKeySource(sandbox.apiKey),
      rateLimitDelayMs: 100,
    });
    const client = await service.forUser({ platform: 'shell', id: 'me', name: 'me', workspace: 'local' });
    const account = sandbox.controls.account() as MediaAccount;
    return { sandbox, service, client, account, close: () => closeAll(service, sandbox) };
  }, onStarted);
}

/** The code of the file titled `title` in `account`. */
export const codeOf = (account: MediaAccount, title: string) =>
  [...account.files.values()].find((f) => f.title === title)?.code as string;
