import { describe, expect, it } from 'vitest';
import { ackDuration } from '../../src/metrics';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { histogramCount } from '../support/metric-values';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let bot: SlackBot;

useFakePlatform(
  () => startSlackBot({ mode: 'socket' }),
  (started) => {
    bot = started;
  },
);

describe('Slack in Socket Mode', () => {
  it('connects with the app-level token and serves /deploy mytool end to end', async () => {
    expect(bot.fake.socket.connected).toBe(true);
    const open = bot.fake.callsOf('apps.connections.open');
    expect(open).toHaveLength(1);
    expect(open[0]?.token).toBe(bot.fake.options.appToken);
    expect(await bot.adapter.healthy()).toBe(true);
    // Nothing is mounted on the HTTP server in Socket Mode.
    const http = await fetch(bot.eventsUrl, { method: 'POST', body: 'x' });
    expect(http.status).toBe(404);

    const ack = await bot.driver.command(USERS.maintainer, 'C0SOCKET', '/deploy mytool');
    expect(ack.ms).toBeLessThan(3000);
    const message = await waitFor(() => {
      const m = bot.fake.channelMessages('C0SOCKET')[0];
      return m && JSON.stringify(m.attachments).includes(':white_check_mark: Deploy mytool') ? m : undefined;
    }, 20_000);
    expect(JSON.stringify(message.attachments)).toMatch(/\*Status\*\\nsuccessful/);
    expect(message.versions.length).toBeGreaterThan(1);
    expect(bot.fake.channelMessages('C0SOCKET')).toHaveLength(1);
  });

  it('clicks a button over the socket too, as the person who clicked', async () => {
    await bot.driver.command(USERS.admin, 'C0SOCKET2', '/jobs show mytool web');
    const card = await waitFor(() => bot.fake.channelMessages('C0SOCKET2')[0]);
    const ack = await bot.driver.click(USERS.stranger, card, 'Restart');
    expect(ack.ms).toBeLessThan(3000);
    const refusal = await waitFor(() => bot.fake.ephemerals.find((e) => e.channel === 'C0SOCKET2'));
    expect(refusal.user).toBe(USERS.stranger.id);
  });

  it('times the acknowledgement sent back over the socket: one ack observation per slash command', async () => {
    const before = await histogramCount(ackDuration, { platform: 'slack' });
    await bot.driver.command(USERS.maintainer, 'C0SOCKET3', '/deploy mytool');
    // The card's later edits are Web API calls, not acks: still exactly one observation.
    await waitFor(() => bot.fake.channelMessages('C0SOCKET3')[0], 20_000);
    await waitFor(
      async () => (await histogramCount(ackDuration, { platform: 'slack' })) > before || undefined,
    );
    await bot.settled();
    expect(await histogramCount(ackDuration, { platform: 'slack' })).toBe(before + 1);
  });
});
