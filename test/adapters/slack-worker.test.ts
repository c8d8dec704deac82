import { describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../adapters/slack/load';
import { Messengers } from '../../src/core/messenger';
import { silentLogger } from '../../src/log';
import { DeliveryDeduper } from '../../src/store/dedupe';
import { WebServer } from '../../src/web/server';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let bot: SlackBot;

useFakePlatform(startSlackBot, (started) => {
  bot = started;
});

describe('a Slack worker process', () => {
  it('receives nothing, but edits a card posted by another process from its stored handle', async () => {
    await bot.driver.command(USERS.maintainer, 'C0SPLIT', '/deploy mytool');
    const message = await waitFor(() => {
      const m = bot.fake.channelMessages('C0SPLIT')[0];
      return m && JSON.stringify(m.attachments).includes(':white_check_mark:') ? m : undefined;
    }, 20_000);

    // Another process: its own messengers and web server, the same Redis and configuration.
    const messengers = new Messengers();
    const web = new WebServer(silentLogger);
    const worker = createSlackAdapter({
      app: { ...bot.app, messengers },
      web,
      config: bot.config,
      logger: silentLogger,
      deduper: new DeliveryDeduper(bot.app.redis.redis, bot.config.REDIS_KEY_PREFIX),
      role: 'worker',
    }) as SlackAdapter;
    await worker.start();
    const port = await web.listen(0, '127.0.0.1');
    try {
      const inbound = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', body: 'x' });
      expect(inbound.status).toBe(404);
      expect(await worker.healthy()).toBe(true);
      const stored = JSON.stringify({
        platform: 'slack',
        conversationId: `slack:${bot.fake.options.teamId}:C0SPLIT`,
        ref: { channel: 'C0SPLIT', ts: message.ts },
      });
      await messengers
        .for('slack')
        .update(JSON.parse(stored), { text: 'Edited by the worker', status: 'info' });
      expect(JSON.stringify(message.attachments)).toContain('Edited by the worker');
      expect(bot.fake.channelMessages('C0SPLIT')).toHaveLength(1);
      const posted = await messengers.for('slack').post(`slack:${bot.fake.options.teamId}:C0NOTIFY`, {
        title: 'Build finished',
        status: 'success',
      });
      expect(posted.ref).toEqual({ channel: 'C0NOTIFY', ts: bot.fake.channelMessages('C0NOTIFY')[0]?.ts });
    } finally {
      await worker.stop();
      await web.close();
    }
  });
});
