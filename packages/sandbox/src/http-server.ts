/**
 * The emulators' listeners: an app's `fetch` served by `@hono/node-server` on an OS-chosen port,
 * and stopped with every open connection cut (a test's `close()` never waits on a keep-alive).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';

/**
 * A server for an app's `fetch` (and, for HTTPS, its `createServer` and `serverOptions`), not yet
 * listening.
 */
export function serverFor(options: Parameters<typeof createAdaptorServer>[0]): Server {
  return createAdaptorServer(Object.assign(options, { overrideGlobalObjects: false })) as unknown as Server;
}

/** Listens on an OS-chosen port of `host`; resolves with the port. */
export async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Stops listening and cuts every open connection. */
export async function shut(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** `host` as it stands in a URL (an IPv6 address in brackets). */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
