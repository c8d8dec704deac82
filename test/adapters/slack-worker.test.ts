import { describe, expect, it } from 'vitest';
import { type SlackBot, startSlackBot, startSlackWorker, USERS } from '../fakes/slack/harness';
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
    const { adapter: worker, messengers, web, stop } = await startSlackWorker(bot);
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
      await stop();
    }
  });

  it("opens a person's direct conversation with conversations.open and posts there", async () => {
    const team = bot.fake.options.teamId;
    const person = { platform: 'slack', workspace: team, id: 'U0ADA', name: 'ada' };
    const direct = await bot.app.messengers.openDirect(person);
    const opens = bot.fake.callsOf('conversations.open');
    expect(opens.map((c) => c.form.users)).toEqual(['U0ADA']);
    const channel = direct.split(':')[2] as string;
    expect(direct).toBe(`slack:${team}:${channel}`);
    expect(channel).toMatch(/^D/);
    const posted = await bot.app.publisher.post(direct, {
      title: 'Your deployment ended',
      status: 'success',
    });
    expect(bot.fake.channelMessages(channel)).toHaveLength(1);
    // Its link, for a direct message pointing at a card: chat.getPermalink.
    const ts = bot.fake.channelMessages(channel)[0]?.ts as string;
    expect(await bot.app.messengers.linkTo(posted)).toBe(
      `https://fake-workspace.slack.com/archives/${channel}/p${ts.replace('.', '')}`,
    );
    // Asked again: the channel Slack gave is remembered.
    expect(await bot.app.messengers.openDirect(person)).toBe(direct);
    expect(bot.fake.callsOf('conversations.open')).toHaveLength(1);
  });
});
