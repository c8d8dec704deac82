/**
 * Commands typed while Redis is away: each is refused at once with "nothing was
 * done" (Discord: deferred first, then told), and none runs when Redis returns. A dedicated
 * redis-server is stopped and started again on the same port and data directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { jobsRuntimeOf } from '@deckhand/sandbox/toolhost/jobs-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/wiring';
import { slashCommand } from '../fakes/discord';
import { type DiscordHarness, startDiscordHarness } from '../fakes/discord/harness';
import { originalOf } from '../fakes/discord/inspect';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { freePort, startTestRedis, type TestRedis } from '../support/redis-server';
import { waitFor } from '../support/wait';

const REFUSED = /Deckhand's store is unavailable, nothing was done — try again in a minute/;

let redis: TestRedis | undefined;
let port: number;
let dir: string;
let slack: SlackBot;
let discord: DiscordHarness;
let telegram: TelegramDeckhand;

beforeAll(async () => {
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'deckhand-outage-cmd-'));
  redis = await startTestRedis({ port, dir, persistent: true });
  const env = { REDIS_URL: `redis://127.0.0.1:${port}/0` };
  slack = await startSlackBot({ env });
  discord = await startDiscordHarness({ env });
  telegram = await startTelegramDeckhand({ env });
}, 60_000);

afterAll(async () => {
  await telegram?.close();
  await discord?.close();
  await slack?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const restarts = (app: App) =>
  jobsRuntimeOf((app.emulators.toolhost as ToolhostSandbox).ctx).get('mytool', 'web')?.restarts ?? 0;
const counts = () => [restarts(slack.app), restarts(discord.app), restarts(telegram.app)];

/** Types `/jobs restart mytool web` once on each platform, as an admin. */
function typeRestartEverywhere(channel: string) {
  const slackSent = slack.driver.command(USERS.admin, channel, '/jobs restart mytool web');
  const interaction = discord.fake.interact(
    slashCommand(discord.place(), 'jobs restart', { tool: 'mytool', job: 'web' }),
  );
  const chat = telegram.fake.privateChat(telegram.users.admin);
  telegram.fake.sendText(telegram.users.admin, chat, '/jobs restart mytool web');
  return { slackSent, interaction, chat };
}

describe('commands typed while Redis is away', () => {
  it('are answered "nothing was done" on Slack, Discord and Telegram, and none runs when Redis is back', async () => {
    // Positive control: with Redis up, the same command restarts the job on each platform.
    const start = counts();
    typeRestartEverywhere('C0UP');
    await waitFor(() => counts().every((n, i) => n === (start[i] as number) + 1), 20_000);

    await redis?.stop();
    const stoppedAt = Date.now();
    redis = undefined;
    const apps = [slack.app, discord.app, telegram.app];
    await waitFor(() => apps.every((app) => app.redis.requests.status !== 'ready'), 10_000);
    const before = counts();

    const typed = [typeRestartEverywhere('C0DOWN'), typeRestartEverywhere('C0DOWN')];

    // Slack: each user hears it privately.
    const ephemerals = await waitFor(() => {
      const found = slack.fake.ephemerals.filter(
        (e) => e.channel === 'C0DOWN' && REFUSED.test(JSON.stringify(e.body)),
      );
      return found.length === 2 ? found : undefined;
    }, 15_000);
    for (const e of ephemerals) expect(e.user).toBe(USERS.admin.id);
    // Discord: deferred first (the deadline is kept), then the answer in the deferred reply.
    for (const { interaction } of typed) {
      const first = await waitFor(() => interaction.callbacks[0], 15_000);
      expect(first.body).toEqual({ type: 5, data: { flags: 64 } });
      const original = await waitFor(() => originalOf(discord.fake, interaction), 15_000);
      expect(JSON.stringify(original)).toMatch(REFUSED);
    }
    // Telegram: in the chat the command came from.
    const chatId = typed[0]?.chat.id as number;
    await waitFor(
      () => telegram.fake.botMessages(chatId).filter((m) => REFUSED.test(m.text)).length === 2,
      15_000,
    );
    expect(counts()).toEqual(before);

    // The outage lasts 20 s (the scenario): long enough for every client's reconnect
    // back-off to run several rounds, so a command parked in an offline queue would surface after it.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20_000 - (Date.now() - stoppedAt))));
    expect(counts()).toEqual(before);
    redis = await startTestRedis({ port, dir, persistent: true });
    await waitFor(
      () => apps.every((app) => app.redis.redis.status === 'ready' && app.redis.requests.status === 'ready'),
      30_000,
      50,
    );
    // Control after the outage: one new command per platform runs; the six refused ones never do.
    typeRestartEverywhere('C0BACK');
    await waitFor(() => counts().every((n, i) => n >= (before[i] as number) + 1), 20_000);
    await slack.settled();
    expect(counts()).toEqual(before.map((n) => n + 1));
    expect(discord.fake.violations).toEqual([]);
  }, 120_000);
});
