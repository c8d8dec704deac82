/**
 * `startEmulators` (packages/sandbox): the one way Deckhand starts its emulators, in-process and in
 * the child process of `start --sandbox`. It starts the named ones only, each answering on
 * 127.0.0.1, stops them all, and leaves no listener behind when one of them cannot start.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulators, stopEmulators } from '@deckhand/sandbox';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait';

const listeners = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

describe('startEmulators', () => {
  it('starts the named emulators once each, which answer until stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-start-emulators-'));
    const emulators = await startEmulators(['calendar', 'toolhost', 'calendar'], { dataDir, stepMs: 20 });
    expect(Object.keys(emulators).sort()).toEqual(['calendar', 'toolhost']);
    const calendar = emulators.calendar as NonNullable<typeof emulators.calendar>;
    const index = await fetch(`${calendar.restRoot}/${calendar.namespace}`);
    expect(index.status).toBe(200);
    expect(((await index.json()) as { namespace: string }).namespace).toBe(calendar.namespace);
    expect([...(emulators.toolhost?.ctx.tools ?? [])]).toContain('mytool');

    await stopEmulators(emulators);
    await expect(fetch(`${calendar.restRoot}/${calendar.namespace}`)).rejects.toThrow();
  });

  it('stops the ones already started when a later one cannot start', async () => {
    // The media host keeps uploads under its data directory: a plain file there makes it fail.
    const notADirectory = join(mkdtempSync(join(tmpdir(), 'deckhand-start-emulators-')), 'file');
    writeFileSync(notADirectory, '');
    const before = listeners();
    await expect(startEmulators(['toolhost', 'media'], { dataDir: notADirectory })).rejects.toThrow();
    // A closed server's handle goes on the next turn of the event loop; an unstopped one stays.
    expect(await waitFor(() => listeners() === before, 5_000)).toBe(true);
  });
});
