/**
 * A client that ioredis ended without its owner closing it connects again (`reconnectWhenEnded`,
 * used on Sentinel clients: ioredis ends one for good when the sentinels announce the new master
 * while it is asking one of them where the master is). Here the end is made with a client whose
 * reconnect strategy gives up, and a `CLIENT KILL` of its connection.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconnectWhenEnded } from '../../src/store/redis-connect';
import { testRedisOptions } from '../support/redis';
import { waitFor } from '../support/wait';

let admin: Redis;
const opened: Redis[] = [];

beforeAll(() => {
  admin = new Redis(testRedisOptions());
});
afterAll(async () => {
  for (const client of opened) client.disconnect();
  await admin.quit();
});

/** A client that ends when its connection is lost, wrapped by reconnectWhenEnded (or not). */
async function endingClient(wrapped: boolean): Promise<Redis> {
  const client = new Redis({ ...testRedisOptions(), retryStrategy: () => null });
  opened.push(client);
  if (wrapped) reconnectWhenEnded(client);
  await client.ping();
  return client;
}

async function killConnectionOf(client: Redis): Promise<void> {
  const id = Number(await client.client('ID'));
  const ended = new Promise((resolve) => client.once('end', resolve));
  await admin.client('KILL', 'ID', String(id));
  await ended;
}

describe('a client ended without its owner closing it', () => {
  it('stays ended without reconnectWhenEnded (what the wrapper mends)', async () => {
    const client = await endingClient(false);
    await killConnectionOf(client);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.status).toBe('end');
  });

  it('connects again and answers, and so does a copy made with duplicate', async () => {
    const client = await endingClient(true);
    await killConnectionOf(client);
    await waitFor(() => client.status === 'ready', 5000);
    expect(await client.set('reconnect-when-ended', 'yes')).toBe('OK');

    const copy = client.duplicate();
    opened.push(copy);
    await copy.ping();
    await killConnectionOf(copy);
    await waitFor(() => copy.status === 'ready', 5000);
    expect(await copy.get('reconnect-when-ended')).toBe('yes');
  });

  it('stays closed when its owner quits or disconnects it', async () => {
    const quitting = await endingClient(true);
    await quitting.quit();
    const leaving = await endingClient(true);
    const ended = new Promise((resolve) => leaving.once('end', resolve));
    leaving.disconnect();
    await ended;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(quitting.status).toBe('end');
    expect(leaving.status).toBe('end');
  });
});
