/**
 * One deployment per tool across processes: 20 simultaneous `/deploy demo` from the three
 * platform fakes (Slack signed slash commands, Discord signed HTTP interactions, Telegram webhook
 * updates), spread over two `--role web` cores (this process, each with its own Redis connections,
 * adapters and HTTP server) and run by two `--role worker` processes. Exactly one deployment starts,
 * and every request is answered with the card of that deployment.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import type { UserFromGetMe } from 'grammy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordAdapter } from '../../adapters/discord/load';
import { createSlackAdapter } from '../../adapters/slack/load';
import { TelegramAdapter } from '../../adapters/telegram/adapter';
import type { PlatformAdapter } from '../../adapters/types';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { slashCommand } from '../fakes/discord/payloads';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/server';
import { snowflake } from '../fakes/discord/store';
import { slackEnv } from '../fakes/slack/harness';
import { SlackDriver } from '../fakes/slack/requests';
import { FakeSlack } from '../fakes/slack/server';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram';
import { processEnv } from '../support/process-env';
import { waitFor } from '../support/wait';
import { startWebProcess, type WebProcess } from '../support/web-process';
import { bundleWorker, type WorkerBundle } from '../support/worker-bundle';
import { sandboxEnv } from '../support/worker-process';

const SIGNING_SECRET = 'concurrent-signing-secret-0123';
const WEBHOOK_SECRET = 'concurrent_webhook_secret';
const TELEGRAM_USERS = [601, 602, 603, 604, 605, 606];

let sandbox: ToolhostSandbox;
let platform: ToolhostClientFactory;
let bundle: WorkerBundle;
let slack: FakeSlack;
let discord: FakeDiscord;
let telegram: FakeTelegram;
let discordKey: ReturnType<typeof generateKeyPairSync>['privateKey'];
let discordAdmin: string;
const webs: WebProcess[] = [];

async function startWeb(env: Record<string, string>): Promise<WebProcess> {
  return startWebProcess(env, {
    sandbox: true,
    adapters: (context) => [
      createSlackAdapter(context) as PlatformAdapter,
      new DiscordAdapter(context, { rest: { retries: 0, timeout: 5000 } }),
      new TelegramAdapter(context, { botInfo: telegram.state.bot as UserFromGetMe }),
    ],
  });
}

beforeAll(async () => {
  // Slow steps: the deployment runs for many seconds, longer than the 20 requests take to be answered.
  sandbox = await startToolhostSandbox({ stepMs: 3000 });
  platform = ToolhostClientFactory.forSandbox(sandbox);
  bundle = await bundleWorker();
  [slack, discord, telegram] = await Promise.all([
    FakeSlack.start(),
    startFakeDiscord(),
    startFakeTelegram(),
  ]);
  const pair = generateKeyPairSync('ed25519');
  discordKey = pair.privateKey;
  const jwk = pair.publicKey.export({ format: 'jwk' });
  discordAdmin = snowflake();
  const env = {
    ...processEnv({ lockMs: 2000, watchPollMs: 200 }),
    ...sandboxEnv(sandbox),
    ADMINS: ['slack:UADMIN', `discord:${discordAdmin}`, ...TELEGRAM_USERS.map((id) => `telegram:${id}`)].join(
      ',',
    ),
    ...slackEnv(slack, SIGNING_SECRET),
    DISCORD_TOKEN: discord.token,
    DISCORD_APPLICATION_ID: discord.identity.applicationId,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_PUBLIC_KEY: Buffer.from(jwk.x as string, 'base64url').toString('hex'),
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PUBLIC_URL: 'https://deckhand.example.org/',
  };
  webs.push(await startWeb(env), await startWeb(env));
  const loaded = await Promise.all([bundle.load(env), bundle.load(env)]);
  for (const worker of loaded) await worker.go();
}, 180_000);

afterAll(async () => {
  await bundle?.stopAll('SIGTERM');
  for (const web of webs) await web.close();
  await Promise.all([slack?.close(), discord?.close(), telegram?.close()]);
  await platform?.close();
  await sandbox?.close();
  bundle?.remove();
}, 60_000);

/** A Discord HTTP interaction, signed as Discord signs it. */
function signed(body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json',
    'x-signature-timestamp': timestamp,
    'x-signature-ed25519': sign(null, Buffer.from(timestamp + body), discordKey).toString('hex'),
  };
}

describe('20 simultaneous /deploy over three platforms, two web processes and two workers', () => {
  it('start exactly one deployment, and every request gets its card', async () => {
    const tool = 'demo';
    const before = (await platform.forTool(tool).components.listDeployments()).map((d) => d.deploy_id);
    const requests: Promise<number>[] = [];
    for (let i = 0; i < 7; i += 1) {
      const web = webs[i % 2] as WebProcess;
      const driver = new SlackDriver(slack, {
        kind: 'http',
        url: `${web.url}/slack/events`,
        signingSecret: SIGNING_SECRET,
      });
      requests.push(
        driver.command({ id: 'UADMIN', name: 'ada' }, `C0CONC${i}`, `/deploy ${tool}`).then((r) => r.status),
      );
    }
    for (let i = 0; i < 7; i += 1) {
      const web = webs[(i + 1) % 2] as WebProcess;
      const place = {
        applicationId: discord.identity.applicationId,
        guildId: discord.identity.guildId,
        channelId: discord.identity.channelId,
        user: { id: discordAdmin, username: 'ada', globalName: 'Ada' },
      };
      const payload = slashCommand(place, 'deploy', { tool });
      requests.push(
        discord.deliverHttp(`${web.url}/discord/interactions`, payload, signed).then((r) => r.status),
      );
    }
    const chats = TELEGRAM_USERS.map((id) => telegram.privateChat(telegram.user(id, `User ${id}`)));
    TELEGRAM_USERS.forEach((id, i) => {
      const web = webs[i % 2] as WebProcess;
      const user = telegram.user(id, `User ${id}`);
      const { update } = telegram.sendText(user, chats[i] as never, `/deploy ${tool}`, { deliver: false });
      requests.push(
        fetch(`${web.url}/telegram/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
          body: JSON.stringify(update),
        }).then((r) => r.status),
      );
    });
    expect(await Promise.all(requests)).toEqual(new Array(20).fill(200));

    const started = await waitFor(async () => {
      const now = await platform.forTool(tool).components.listDeployments();
      const fresh = now.filter((d) => !before.includes(d.deploy_id));
      return fresh.length > 0 ? fresh : undefined;
    }, 30_000);
    const id = started[0]?.deploy_id as string;
    const shows = (text: string) => text.includes(id);
    const slackCards = () =>
      Array.from(
        { length: 7 },
        (_, i) =>
          slack.channelMessages(`C0CONC${i}`).filter((m) => shows(JSON.stringify(m.attachments))).length,
      );
    const discordCards = () =>
      discord.channelMessages().filter((m) => m.via === 'bot' && shows(JSON.stringify(m.embeds))).length;
    const telegramCards = () =>
      chats.map((chat) => telegram.botMessages(chat.id).filter((m) => shows(m.text)).length);
    await waitFor(
      () =>
        slackCards().every((n) => n === 1) && discordCards() === 7 && telegramCards().every((n) => n === 1),
      60_000,
      100,
    );
    // Every request was answered once, with that deployment's card; and only one deployment began.
    expect(slackCards()).toEqual(new Array(7).fill(1));
    expect(discordCards()).toBe(7);
    expect(telegramCards()).toEqual(new Array(6).fill(1));
    const after = await platform.forTool(tool).components.listDeployments();
    expect(after.filter((d) => !before.includes(d.deploy_id)).map((d) => d.deploy_id)).toEqual([id]);
    expect(slack.violations).toEqual([]);
    expect(discord.violations).toEqual([]);
    telegram.assertClean();
  }, 180_000);
});
