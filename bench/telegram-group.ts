import { startToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { logStoreOf } from '@deckhand/sandbox/toolhost/logs-store';
import { Redis } from 'ioredis';
import { SubscriptionStore } from '../src/store/subscriptions';
import { startFakeTelegram } from '../test/fakes/telegram';
import { freePort } from '../test/support/redis-server';
import { sandboxEnv } from '../test/support/worker-process';
import { type BenchContext, type Benchmark, deckhandEnv } from './lib/context';
import { telegramRules } from './lib/platform-limits';
import { spawnDeckhand, waitForHttp } from './lib/processes';
import { startRateLimitProxy } from './lib/rate-limit-proxy';
import { type BenchResult, infoFigure, limitFigure } from './lib/results';
import { sleep, until } from './lib/stats';

const TOOL = 'mytool';
const ADMIN_ID = 601;

async function runTelegramGroup(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const seconds = ctx.quick ? 8 : 70;
  const sandbox = await startToolhostSandbox({ stepMs: ctx.quick ? 300 : 3000 });
  const fake = await startFakeTelegram();
  const proxy = await startRateLimitProxy(fake.apiRoot, telegramRules);
  const prefix = 'bench-tg-group:';
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: null });
  const port = await freePort();
  const deckhand = spawnDeckhand({
    role: 'all',
    env: {
      ...sandboxEnv(sandbox),
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: proxy.url,
      ADMINS: `telegram:${ADMIN_ID}`,
      ...deckhandEnv(ctx, prefix, port),
    },
  });
  const notes: string[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 60_000, deckhand);
    const admin = fake.user(ADMIN_ID, 'Ada', 'ada');
    const group = fake.group('Deploys');
    const botId = fake.token.split(':')[0] as string;
    await new SubscriptionStore(redis, prefix).put({
      conversationId: `telegram:${botId}:${group.id}`,
      platform: 'telegram',
      tool: TOOL,
      kinds: ['builds'],
      failuresOnly: false,
      changesOnly: false,
      createdBy: `telegram:${ADMIN_ID}`,
    });
    const store = logStoreOf(sandbox.ctx);
    const bot = () => fake.botMessages(group.id);
    fake.sendText(admin, group, `/logs ${TOOL} web --follow`);
    const tailCard = () => bot().find((m) => m.text.includes('Live log'));
    if (!(await until(() => tailCard() !== undefined, 30_000)))
      throw new Error('the live log card was not posted');
    fake.sendText(admin, group, `/build start ${TOOL} https://gitlab.wikimedia.org/toolforge-repos/${TOOL}`);
    const buildCard = () => bot().find((m) => /^Build\b/m.test(m.text) && m !== tailCard());
    if (!(await until(() => buildCard() !== undefined, 30_000)))
      throw new Error('the build card was not posted');

    ctx.log(`telegram-group: printing 200 lines/s for ${seconds} s`);
    let printed = 0;
    const t0 = Date.now();
    while (Date.now() - t0 < seconds * 1000) {
      for (let i = 0; i < 20; i++) {
        store.append(TOOL, 'web', {
          pod: 'web-bench',
          container: 'web',
          message: `bench-line ${printed++}`,
          time: Date.now(),
        });
      }
      await sleep(100);
    }
    const tail = tailCard()!;
    fake.click(admin, tail, 'Stop');
    const stopped = await until(() => /Stopped following/.test(tail.text), 120_000, 200);
    if (!stopped) notes.push('the tail card never showed that it stopped');
    const build = buildCard()!;
    const finished = await until(
      () => /succeeded|failed|finished|Succeeded|Failed/.test(build.text),
      120_000,
      200,
    );
    if (!finished) notes.push(`the build card never showed the build's end: ${build.text.slice(0, 120)}`);
    await sleep(3000); // late edits, if any, arrive now

    const edits = fake.callsTo('editMessageText').length;
    const sends = fake.callsTo('sendMessage').length + fake.callsTo('sendDocument').length;
    const refused = [...proxy.refused].map(([k, n]) => `${n} on ${k}`).join(', ') || 'none';
    const tailLast = tail.versions.at(-1)?.text ?? tail.text;
    notes.push(
      `${printed} lines; ${edits} edits and ${sends} messages to the group in ${Math.round((Date.now() - t0) / 1000)} s; 429s: ${refused}; tail card ends: "${tailLast.split('\n')[0]}"`,
    );
    return {
      id: 'telegram-group',
      title: '10. Busy Telegram group',
      status: 'ran',
      figures: [
        limitFigure('429s answered to Deckhand', proxy.refusedTotal(), 0),
        limitFigure('cards not ending on their latest state', (stopped ? 0 : 1) + (finished ? 0 : 1), 0),
        infoFigure('edits per minute', (edits / Math.max(1, Date.now() - t0)) * 60_000),
      ],
      params: { seconds, linesPerSecond: 200 },
      notes,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await deckhand.stop();
    await redis.quit();
    await proxy.close();
    await fake.close();
    await sandbox.close();
  }
}

/** The busy-Telegram-group benchmark. */
export const telegramGroupBenchmark: Benchmark = {
  id: 'telegram-group',
  title: '10. Busy Telegram group',
  run: runTelegramGroup,
};
