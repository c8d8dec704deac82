/**
 * Benchmark 2 — notification fan-out. One build state change (a build of `mytool` on the sandbox
 * finishing, seen by a durable watch) announced to N conversations on each of Slack, Discord and
 * Telegram (500 each; quick: 60), every one subscribed to the tool's builds. Deckhand runs as its own
 * `deckhand start --role worker` process with all three adapters; each platform's fake sits behind a
 * proxy that enforces the platform's documented send limits and answers 429 past them
 * (lib/platform-limits.ts). Baseline: the least time those limits allow for the messages (the slowest
 * platform's bound). Also checked: every conversation got the announcement exactly once, and no 429.
 */
import { join } from 'node:path';
import { startToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { Redis } from 'ioredis';
import type { WatchEvent } from '../src/core/watch';
import { closeQueues, openQueues } from '../src/queue/queues';
import { QueueWatchService } from '../src/queue/watch-service';
import { ToolhostClientFactory } from '../src/services/toolhost';
import { SubscriptionStore } from '../src/store/subscriptions';
import { startFakeDiscord } from '../test/fakes/discord';
import { FakeSlack } from '../test/fakes/slack';
import { startFakeTelegram } from '../test/fakes/telegram';
import { freePort } from '../test/support/redis-server';
import { sandboxEnv } from '../test/support/worker-process';
import { type BenchContext, type Benchmark, deckhandEnv } from './lib/context';
import { discordRules, slackRules, telegramRules } from './lib/platform-limits';
import { spawnDeckhand, waitForHttp } from './lib/processes';
import { lowerBoundMs } from './lib/rate-limit';
import { startRateLimitProxy } from './lib/rate-limit-proxy';
import { type BenchResult, infoFigure, limitFigure, ratioFigure } from './lib/results';
import { maxOf, round, sleep, until } from './lib/stats';

const TOOL = 'mytool';

async function runFanout(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const perPlatform = ctx.quick ? 60 : 500;
  const sandbox = await startToolhostSandbox({ stepMs: 200 });
  const slack = await FakeSlack.start();
  const discord = await startFakeDiscord();
  const telegram = await startFakeTelegram();
  const proxies = {
    slack: await startRateLimitProxy(slack.url, slackRules),
    discord: await startRateLimitProxy(`http://127.0.0.1:${discord.port}`, discordRules),
    telegram: await startRateLimitProxy(telegram.apiRoot, telegramRules),
  };
  const prefix = 'bench-fanout:';
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: null });
  const queues = openQueues(redis, prefix);
  const port = await freePort();
  const deckhand = spawnDeckhand({
    role: 'worker',
    env: {
      ...sandboxEnv(sandbox),
      SLACK_BOT_TOKEN: slack.options.botToken,
      SLACK_SIGNING_SECRET: 'bench-signing-secret-0123456789',
      SLACK_API_URL: `${proxies.slack.url}/api/`,
      DISCORD_TOKEN: discord.token,
      DISCORD_APPLICATION_ID: discord.identity.applicationId,
      DISCORD_API_URL: `${proxies.discord.url}/api`,
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: proxies.telegram.url,
      ...deckhandEnv(ctx, prefix, port),
    },
    ...(ctx.profileDir ? { cpuProfDir: join(ctx.profileDir, 'fanout') } : {}),
  });
  const notes: string[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 60_000, deckhand);
    const subscriptions = new SubscriptionStore(redis, prefix);
    const slackChannels = Array.from({ length: perPlatform }, (_, i) => `C0FAN${String(i).padStart(5, '0')}`);
    const discordChannels = Array.from({ length: perPlatform }, (_, i) =>
      String(1_300_000_000_000_000_000n + BigInt(i)),
    );
    const telegramChats = Array.from({ length: perPlatform }, (_, i) => telegram.group(`fan-out ${i}`).id);
    const botId = telegram.token.split(':')[0] as string;
    const conversations = [
      ...slackChannels.map((c) => ({ platform: 'slack' as const, id: `slack:${slack.options.teamId}:${c}` })),
      ...discordChannels.map((c) => ({
        platform: 'discord' as const,
        id: `discord:${discord.identity.guildId}:${c}`,
      })),
      ...telegramChats.map((c) => ({ platform: 'telegram' as const, id: `telegram:${botId}:${c}` })),
    ];
    for (const conversation of conversations) {
      await subscriptions.put({
        conversationId: conversation.id,
        platform: conversation.platform,
        tool: TOOL,
        kinds: ['builds'],
        failuresOnly: false,
        changesOnly: false,
        createdBy: 'slack:UADMIN',
      });
    }
    const client = ToolhostClientFactory.forSandbox(sandbox).forTool(TOOL);
    const build = await client.builds.start({
      source_url: 'https://gitlab.wikimedia.org/toolforge-repos/mytool',
      ref: 'main',
    });
    ctx.log(`fanout: build ${build.name} started; ${conversations.length} conversations subscribed`);
    await new QueueWatchService(queues, redis, prefix).start({ kind: 'build', tool: TOOL, id: build.name });
    const total = conversations.length;
    const delivered = () =>
      proxies.slack.delivered.length + proxies.discord.delivered.length + proxies.telegram.delivered.length;
    const complete = await until(() => delivered() >= total, (ctx.quick ? 30 : 120) * 1000, 100);
    await sleep(ctx.quick ? 500 : 2000); // late duplicates, if any, arrive now
    if (!complete) notes.push(`only ${delivered()} of ${total} announcements arrived in time`);

    const jobs = await queues.notify.getJobs(['completed', 'active', 'waiting', 'failed']);
    const event = jobs.map((j) => j.data as WatchEvent).find((e) => e.terminal && e.id === build.name);
    if (!event) throw new Error('the build end was never announced');
    const platforms = [
      {
        name: 'Slack',
        proxy: proxies.slack,
        bound: 0,
        count: (i: number) => slack.channelMessages(slackChannels[i] as string).length,
      },
      {
        name: 'Discord',
        proxy: proxies.discord,
        bound: lowerBoundMs(perPlatform, 50, 1000),
        count: (i: number) => discord.channelMessages(discordChannels[i]).length,
      },
      {
        name: 'Telegram',
        proxy: proxies.telegram,
        bound: lowerBoundMs(perPlatform, 30, 1000),
        count: (i: number) => telegram.botMessages(telegramChats[i] as number).length,
      },
    ];
    let wrong = 0;
    let last = event.at;
    for (const p of platforms) {
      const counts = Array.from({ length: perPlatform }, (_, i) => p.count(i));
      const notOnce = counts.filter((n) => n !== 1).length;
      wrong += notOnce;
      const ends = p.proxy.delivered.map((d) => d.at);
      const end = ends.length ? maxOf(ends) : Number.NaN;
      last = Math.max(last, end);
      const refused = [...p.proxy.refused].map(([k, n]) => `${n} on ${k}`).join(', ') || 'none';
      notes.push(
        `${p.name}: ${ends.length} delivered, last ${round((end - event.at) / 1000, 2)} s after the change (bound ${p.bound / 1000} s); not exactly once: ${notOnce}; 429s: ${refused}.`,
      );
    }
    const violations = [...slack.violations, ...discord.violations, ...telegram.violations];
    if (violations.length > 0) notes.push(`fake violations: ${violations.slice(0, 3).join('; ')}`);
    const bound = Math.max(...platforms.map((p) => p.bound));
    const elapsed = last - event.at;
    const refusedTotal = platforms.reduce((sum, p) => sum + p.proxy.refusedTotal(), 0);
    return {
      id: 'fanout',
      title: '2. Fan-out',
      status: 'ran',
      figures: [
        ratioFigure(
          `time to notify ${total} conversations`,
          elapsed / 1000,
          bound / 1000,
          'rate-limit bound',
          1.15,
          's',
        ),
        limitFigure('conversations not notified exactly once', wrong, 0),
        limitFigure('429s answered to Deckhand', refusedTotal, 0),
        infoFigure('Deckhand CPU', deckhand.cpuSeconds(), 's'),
      ],
      params: { perPlatform, platforms: 'slack,discord,telegram' },
      notes,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await deckhand.stop();
    await closeQueues(queues);
    await redis.quit();
    for (const proxy of Object.values(proxies)) await proxy.close();
    await telegram.close();
    await discord.close();
    await slack.close();
    await sandbox.close();
  }
}

/** The fan-out benchmark. */
export const fanoutBenchmark: Benchmark = { id: 'fanout', title: '2. Fan-out', run: runFanout };
