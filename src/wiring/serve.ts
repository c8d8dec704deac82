/**
 * The serving side of a process: the one web server with the account routes and health checks, the
 * chat platform adapters (built from `adapters/`), and the terminal chat.
 */
import { ADAPTERS, type PlatformAdapter } from '../../adapters';
import { ShellAdapter } from '../../adapters/shell/shell-adapter';
import { WebServer } from '../web/server';
import type { App } from './app';
import { adapterContext } from './host';

/** The web server of a process, with the account routes and the Redis health check mounted. */
export function openWeb(app: App): WebServer {
  const web = new WebServer(app.services.logger);
  app.accounts.mount(web);
  web.healthCheck('redis', async () => (await app.redis.redis.ping()) === 'PONG');
  return web;
}

/** Listens, tells the account links where, and marks the server ready; resolves with the port. */
export async function listenWeb(app: App, web: WebServer): Promise<number> {
  const { config } = app.services;
  const port = await web.listen(config.PORT, config.HOST);
  app.accounts.listening(port);
  web.markReady();
  return port;
}

/** The adapters whose platform is configured, each with its health check on `web`. */
export function createAdapters(app: App, web: WebServer, role: 'web' | 'worker' | 'all'): PlatformAdapter[] {
  const context = adapterContext(app, { web, role });
  const adapters = ADAPTERS.map((create) => create(context)).filter(
    (a): a is PlatformAdapter => a !== undefined,
  );
  for (const adapter of adapters) web.healthCheck(adapter.platform, () => adapter.healthy());
  return adapters;
}

/** What the terminal chat reads and writes. */
export interface ShellIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  interactive: boolean;
  userName: string;
  /** Where files the user attaches are looked for. */
  filesDir: string;
}

/** The terminal chat, registered as the `shell` platform's messenger. */
export function createShell(app: App, io: ShellIo): ShellAdapter {
  const shell = new ShellAdapter({
    dispatcher: app.dispatcher as never,
    watches: app.services.watches,
    ...io,
  });
  app.messengers.register('shell', shell);
  return shell;
}
