/**
 * Deckhand with its IRC adapter on the test IRC network and the sandbox: the whole core (runner,
 * BullMQ, Redis), the web server with the card views, and the real adapter wired only by
 * configuration (`IRC_SERVER`, `IRC_SASL_*`, `IRC_CHANNELS`), as `deckhand start` wires it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IrcAdapter } from '../../adapters/irc/adapter';
import { channelsToJoin } from '../../adapters/irc/feed';
import { type Config, loadConfig } from '../../src/config';
import { CARD_VIEW_NAMESPACE } from '../../src/core/card-view';
import type { AnyCommand } from '../../src/core/command';
import { silentLogger } from '../../src/log';
import { mountCardViews } from '../../src/web/card-view-route';
import { WebServer } from '../../src/web/server';
import type { App } from '../../src/wiring';
import { startAdapterCore } from './adapter-core';
import type { TestIrcNetwork } from './irc-network';
import { accountName, registerAccount } from './irc-users';
import { testPrefix, testRedisUrl } from './redis';

/** A running Deckhand on the test network. */
export interface IrcDeckhand {
  app: App;
  adapter: IrcAdapter;
  config: Config;
  web: WebServer;
  webUrl: string;
  /** The bot's services account. */
  account: string;
  close(): Promise<void>;
}

/** Options of {@link startIrcDeckhand}. */
export interface IrcDeckhandOptions {
  channels: string[];
  /** More environment (admins, maintainers, flood settings). */
  env?: Record<string, string>;
  commands?: AnyCommand<unknown>[];
  role?: 'all' | 'web';
  /** Connect over TLS, verifying the network's certificate with `IRC_TLS_CA`. */
  tls?: boolean;
  /** The sandbox in this process (default), or false when `env` points at one (`sandboxEnv`). */
  sandbox?: boolean;
}

/** Registers the bot's account, starts Deckhand and waits until it is in its channels (the SAL one too). */
export async function startIrcDeckhand(
  network: TestIrcNetwork,
  options: IrcDeckhandOptions,
): Promise<IrcDeckhand> {
  const account = accountName('bot');
  const password = await registerAccount(network, account);
  const web = new WebServer(silentLogger);
  const port = await web.listen(0, '127.0.0.1');
  const webUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-irc-app-'));
  const ca = join(dataDir, 'irc-ca.pem');
  writeFileSync(ca, network.certificate);
  const server = options.tls
    ? { IRC_SERVER: `${network.host}:${network.tlsPort}`, IRC_TLS: 'true', IRC_TLS_CA: ca }
    : { IRC_SERVER: `${network.host}:${network.port}`, IRC_TLS: 'false' };
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: testPrefix(),
    DATA_DIR: dataDir,
    SANDBOX_STEP_MS: '20',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: webUrl,
    ...server,
    IRC_NICK: account,
    IRC_SASL_ACCOUNT: account,
    IRC_SASL_PASSWORD: password,
    IRC_CHANNELS: options.channels.join(','),
    ...options.env,
  });
  const role = options.role ?? 'all';
  const { app, adapter, close } = await startAdapterCore({
    config,
    logger: silentLogger,
    role,
    sandbox: options.sandbox ?? true,
    web,
    workers: role !== 'web',
    commands: options.commands as AnyCommand<never>[] | undefined,
    create: (context) => {
      mountCardViews(web, context.app.keyValue(CARD_VIEW_NAMESPACE, { sealed: true }));
      return new IrcAdapter(context);
    },
  });
  const link = adapter.link;
  const deadline = Date.now() + 20_000;
  const channels = channelsToJoin(config);
  while (!(link && channels.every((c) => link.joined.has(c.toLowerCase())))) {
    if (Date.now() > deadline) throw new Error(`the bot did not join ${channels.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    app,
    adapter,
    config,
    web,
    webUrl,
    account,
    async close() {
      await close();
      rmSync(config.DATA_DIR, { recursive: true, force: true });
    },
  };
}
