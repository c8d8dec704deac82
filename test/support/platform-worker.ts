// A Deckhand worker process for the crash tests: the real core with `--role worker` and the chat
// adapters configured by the environment (pointed at fakes the test runs), each created by its
// factory as `deckhand start` does; only the configured platforms' SDKs are loaded, to start fast.
// It loads, prints "loaded", and starts its queue workers only when a line arrives on stdin (then
// prints "ready"): the test keeps the next worker loaded while the current one is killed, so a crash
// round does not wait for a process to start.
import type { AdapterFactory, PlatformAdapter } from '../../adapters/types';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { DeliveryDeduper } from '../../src/store/dedupe';
import { WebServer } from '../../src/web/server';
import { createApp } from '../../src/wiring';
import { RedisOutbox } from './sal-outbox';

const config = loadConfig();
const logger = silentLogger;
const app = await createApp({ config, logger, sandbox: false });
// The SAL tests read the lines this worker queues from Redis (the test's outbox, one line per id).
const salOutbox = process.env.DECKHAND_TEST_SAL_OUTBOX;
if (salOutbox) app.adminLogLink.attach(new RedisOutbox(app.redis.redis, salOutbox));
const web = new WebServer(logger);
const context = {
  app,
  web,
  config,
  logger,
  deduper: new DeliveryDeduper(app.redis.redis, config.REDIS_KEY_PREFIX),
  role: 'worker' as const,
};
const factories: AdapterFactory[] = [];
if (config.SLACK_BOT_TOKEN) factories.push((await import('../../adapters/slack/load')).createSlackAdapter);
if (config.DISCORD_TOKEN) factories.push((await import('../../adapters/discord/load')).createDiscordAdapter);
if (config.TELEGRAM_BOT_TOKEN) {
  const { createTelegramAdapter } = await import('../../adapters/telegram/load');
  factories.push((c) => createTelegramAdapter(c));
}
if (config.MATRIX_HOMESERVER_URL)
  factories.push((await import('../../adapters/matrix/load')).createMatrixAdapter);
if (config.IRC_SERVER) factories.push((await import('../../adapters/irc/load')).createIrcAdapter);
const adapters = factories
  .map((create) => create(context))
  .filter((a): a is PlatformAdapter => a !== undefined);
for (const adapter of adapters) await adapter.start();
process.stdout.write('loaded\n');
// The test went away (its end of the pipe closed): do not linger holding Redis connections.
process.stdin.once('end', () => process.exit(0));
process.stdin.once('data', () => {
  app.startWorkers();
  process.stdout.write('ready\n');
});
process.on('SIGTERM', () => {
  void Promise.all(adapters.map((a) => a.stop()))
    .then(() => app.close())
    .then(() => process.exit(0));
});
