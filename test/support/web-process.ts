/**
 * A Deckhand `web` process inside a test: the core (`createApp`), the one web server and the chat
 * adapters that answer there, as `deckhand start --role web` assembles them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSlackAdapter } from '../../adapters/slack/load';
import type { AdapterContext, PlatformAdapter } from '../../adapters/types';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { DeliveryDeduper } from '../../src/store/dedupe';
import { WebServer } from '../../src/web/server';
import { type App, createApp } from '../../src/wiring';
import { SlackDriver } from '../fakes/slack/requests';
import type { FakeSlack } from '../fakes/slack/server';

/** A started web process. */
export interface WebProcess {
  app: App;
  web: WebServer;
  adapters: PlatformAdapter[];
  /** The web server's base URL (`http://127.0.0.1:<port>`). */
  url: string;
  /** Stops the adapters, the web server and the core. */
  close(): Promise<void>;
}

/** Starts a web process on `env` (with a fresh `DATA_DIR`) and the adapters `adapters` creates. */
export async function startWebProcess(
  env: Record<string, string>,
  options: { sandbox: boolean; adapters(context: AdapterContext): PlatformAdapter[] },
): Promise<WebProcess> {
  const config = loadConfig({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-web-')) });
  const app = await createApp({ config, logger: silentLogger, sandbox: options.sandbox });
  const web = new WebServer(silentLogger);
  const context: AdapterContext = {
    app,
    web,
    config,
    logger: silentLogger,
    deduper: new DeliveryDeduper(app.redis.requests, config.REDIS_KEY_PREFIX),
    role: 'web',
  };
  const adapters = options.adapters(context);
  for (const adapter of adapters) await adapter.start();
  const port = await web.listen(0, '127.0.0.1');
  return {
    app,
    web,
    adapters,
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const adapter of adapters) await adapter.stop();
      await web.close();
      await app.close();
    },
  };
}

/** A web process with the Slack adapter, and the driver that plays Slack towards it. */
export interface SlackWebProcess extends WebProcess {
  driver: SlackDriver;
}

/**
 * A web process (no sandbox) whose one adapter is Slack's, configured by `env` (see `slackEnv`), and a
 * driver that sends it what `fake` Slack would, signed with `env.SLACK_SIGNING_SECRET`.
 */
export async function startSlackWebProcess(
  env: Record<string, string>,
  fake: FakeSlack,
): Promise<SlackWebProcess> {
  const signingSecret = env.SLACK_SIGNING_SECRET;
  if (!signingSecret) throw new Error('startSlackWebProcess: env has no SLACK_SIGNING_SECRET');
  const started = await startWebProcess(env, {
    sandbox: false,
    adapters: (context) => [createSlackAdapter(context) as PlatformAdapter],
  });
  const driver = new SlackDriver(fake, { kind: 'http', url: `${started.url}/slack/events`, signingSecret });
  return { ...started, driver };
}
