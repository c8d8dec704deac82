/**
 * A web and a worker Deckhand in this process, each reaching one Redis through its own
 * {@link RedisRelay} (so their Redis traffic is counted apart, and the worker's link can be slowed
 * down), serving Slack over HTTP against a fake Slack, with the toolhost sandbox as the platform.
 * The set-up of the Redis-cost benchmark and of the test that pins its counts.
 */
import { createSlackAdapter, type SlackAdapter } from '../../adapters/slack/load';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { WebServer } from '../../src/web/server';
import { type App, createApp } from '../../src/wiring';
import { adapterContext } from '../../src/wiring/host';
import { FakeSlack, SlackDriver } from '../../test/fakes/slack';
import { RedisRelay } from '../../test/support/redis-relay';

const SIGNING_SECRET = 'cost-signing-secret-0123456789';

/** One process's half: its app, adapter and relay. */
export interface CostSide {
  app: App;
  adapter: SlackAdapter;
  relay: RedisRelay;
}

/** The running pair. */
export interface CostDeckhand {
  fake: FakeSlack;
  driver: SlackDriver;
  web: CostSide;
  worker: CostSide;
  close(): Promise<void>;
}

/** Options of {@link startCostDeckhand}. */
export interface CostDeckhandOptions {
  redisPort: number;
  /** Database number (tests share one server). */
  db?: number;
  prefix: string;
  /** Extra configuration of both processes. */
  env?: Record<string, string>;
}

async function startSide(
  fake: FakeSlack,
  options: CostDeckhandOptions,
  role: 'web' | 'worker',
): Promise<CostSide & { server: WebServer; port: number }> {
  const relay = await RedisRelay.start(options.redisPort);
  const config = loadConfig({
    REDIS_URL: relay.url(options.db ?? 0),
    REDIS_KEY_PREFIX: options.prefix,
    // Slow sandbox steps: a deployment stays running while its watch polls (a third of a step apart).
    SANDBOX_STEP_MS: '30000',
    WATCH_POLL_MS: '1000',
    ADMINS: 'slack:UADMIN',
    TOOL_MAINTAINERS: 'mytool=slack:UMAINT',
    SLACK_BOT_TOKEN: fake.options.botToken,
    SLACK_API_URL: fake.apiUrl,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const app = await createApp({ config, logger: silentLogger, sandbox: true });
  const server = new WebServer(silentLogger);
  const adapter = createSlackAdapter(adapterContext(app, { web: server, role })) as SlackAdapter | undefined;
  if (!adapter) throw new Error('the Slack adapter did not configure itself');
  await adapter.start();
  if (role === 'worker') app.startWorkers();
  const port = await server.listen(0, '127.0.0.1');
  return { app, adapter, relay, server, port };
}

/** Starts the fake Slack, the web and the worker. */
export async function startCostDeckhand(options: CostDeckhandOptions): Promise<CostDeckhand> {
  const fake = await FakeSlack.start();
  const web = await startSide(fake, options, 'web');
  const worker = await startSide(fake, options, 'worker');
  const driver = new SlackDriver(fake, {
    kind: 'http',
    url: `http://127.0.0.1:${web.port}/slack/events`,
    signingSecret: SIGNING_SECRET,
  });
  return {
    fake,
    driver,
    web,
    worker,
    async close() {
      for (const side of [web, worker]) {
        await side.adapter.stop();
        await side.server.close();
        await side.app.close();
        await side.relay.close();
      }
      await fake.close();
    },
  };
}
