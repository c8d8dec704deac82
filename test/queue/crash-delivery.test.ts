/**
 * Exactly-once announcements through a crash. A real worker process (the core with
 * `--role worker` and the real adapter, see test/support/platform-worker.ts) posts an announcement;
 * the fake platform carries the post out (the message exists) but holds its HTTP answer; the worker is
 * killed with SIGKILL while the answer is held, so it never learns the post happened. The next worker
 * takes the stalled delivery over. Ten rounds per platform; each round counts the messages users see.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { matrixConversationId } from '../../adapters/matrix/ids';
import { deliverJob } from '../../src/queue/notify-processor';
import { bullPrefix, deliverQueueOf } from '../../src/queue/queues';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/server';
import type { HeldAnswer } from '../fakes/hold';
import { People } from '../fakes/matrix/people';
import { startFakeHomeserver } from '../fakes/matrix/server';
import { slackEnv } from '../fakes/slack/harness';
import { FakeSlack } from '../fakes/slack/server';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram';
import { processEnv } from '../support/process-env';
import { testRedisOptions } from '../support/redis';
import { waitFor } from '../support/wait';
import { buildEnded } from '../support/watch-events';
import { preloadedWorkers, useWorkerBundle } from '../support/worker-bundle';
import { stopWorker } from '../support/worker-process';

const ROUNDS = 10;

const bundle = useWorkerBundle();

/** What differs between platforms. */
interface Platform {
  name: 'slack' | 'discord' | 'telegram' | 'matrix';
  conversationId: string;
  env: Record<string, string>;
  /** Holds the answer of the next post. */
  holdNextPost(): HeldAnswer;
  /** Messages users see in the conversation that announce `id`. */
  shown(id: string): number;
  close(): Promise<void>;
}

/**
 * Runs the crash rounds and returns, per round, how many messages announce that round's event. Each
 * round: the current worker takes the delivery, the fake stores the message and holds the answer, the
 * worker is SIGKILLed, the next (already loaded) worker starts and finishes the delivery.
 */
async function crashRounds(platform: Platform): Promise<{ shown: number[]; dropped: number }> {
  const env = { ...processEnv({ lockMs: 500, dataDir: 'deckhand-crash-' }), ...platform.env };
  const prefix = env.REDIS_KEY_PREFIX;
  const connection = new Redis(testRedisOptions());
  const name = deliverQueueOf(platform.name);
  const queue = new Queue(name, { connection, prefix: bullPrefix(prefix, name) });
  const shown: number[] = [];
  const timings: string[] = [];
  let dropped = 0;
  try {
    const workers = preloadedWorkers(bundle(), env);
    let current = await workers.nextStarted();
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = `crash-${round}-${prefix.slice(1, 5)}`;
      const t0 = Date.now();
      const steps: string[] = [];
      const step = (what: string) => steps.push(`${what} ${Date.now() - t0}`);
      const held = platform.holdNextPost();
      const job = deliverJob(buildEnded(id), platform.conversationId);
      await queue.add(job.name, job.data, job.opts);
      await held.arrived;
      step('arrived');
      // Positive control: the message exists before the crash.
      expect(platform.shown(id), `round ${round}: posted before the kill`).toBe(1);
      await stopWorker(current.child, 'SIGKILL');
      await waitFor(() => held.dropped, 5_000, 5);
      dropped += 1;
      step('killed');
      current = await workers.next();
      step('loaded');
      await current.go();
      step('go');
      await waitFor(async () => (await queue.getJobState(job.opts.jobId)) === 'completed', 60_000, 20);
      step('completed');
      shown.push(platform.shown(id));
      timings.push(`round ${round}: ${steps.join(', ')} ms`);
    }
    for (const loaded of await workers.waiting()) await stopWorker(loaded.child, 'SIGKILL');
    await stopWorker(current.child, 'SIGTERM');
  } finally {
    console.info(`${platform.name}:\n${timings.join('\n')}`);
    await queue.close();
    await connection.quit();
    await platform.close();
  }
  return { shown, dropped };
}

function count(haystack: unknown[], id: string): number {
  return haystack.filter((item) => JSON.stringify(item).includes(`build ${id}`)).length;
}

describe('an announcement whose worker is killed (SIGKILL) while the platform holds the post answer', () => {
  it(`Slack: 0 duplicates in ${ROUNDS} rounds (metadata key found in conversations.history)`, async () => {
    const fake = await FakeSlack.start();
    const { shown, dropped } = await crashRounds({
      name: 'slack',
      conversationId: `slack:${fake.options.teamId}:CANN`,
      env: slackEnv(fake),
      holdNextPost: () => fake.holdNext('chat.postMessage'),
      shown: (id) => count(fake.channelMessages('CANN'), id),
      close: () => fake.close(),
    });
    console.info(`Slack crash rounds: messages per round ${JSON.stringify(shown)}`);
    expect(dropped).toBe(ROUNDS);
    expect(shown).toEqual(Array(ROUNDS).fill(1));
    // The retry looked for the interrupted post instead of trusting luck, once per round.
    expect(fake.callsOf('conversations.history').length).toBeGreaterThanOrEqual(ROUNDS);
    expect(fake.callsOf('conversations.history').every((c) => c.form.include_all_metadata === 'true')).toBe(
      true,
    );
    expect(fake.violations).toEqual([]);
  }, 300_000);

  it(`Discord: 0 duplicates in ${ROUNDS} rounds (same nonce, enforce_nonce: Discord returns the first message)`, async () => {
    const fake: FakeDiscord = await startFakeDiscord();
    const channel = fake.identity.channelId;
    const { shown, dropped } = await crashRounds({
      name: 'discord',
      conversationId: `discord:${fake.identity.guildId}:${channel}`,
      env: {
        DISCORD_TOKEN: fake.token,
        DISCORD_APPLICATION_ID: fake.identity.applicationId,
        DISCORD_API_URL: fake.apiUrl,
      },
      holdNextPost: () => fake.holdNext('POST', /^\/channels\/\d+\/messages$/),
      shown: (id) => count(fake.channelMessages(channel), id),
      close: () => fake.close(),
    });
    console.info(`Discord crash rounds: messages per round ${JSON.stringify(shown)}`);
    expect(dropped).toBe(ROUNDS);
    expect(shown).toEqual(Array(ROUNDS).fill(1));
    // Each round posted twice with one nonce; the second answer was the first message.
    const posts = fake.requestsTo('POST', /^\/channels\/\d+\/messages$/);
    const nonces = posts.map((p) => (p.body as { nonce?: string; enforce_nonce?: boolean }).nonce);
    expect(posts.length).toBe(2 * ROUNDS);
    expect(new Set(nonces).size).toBe(ROUNDS);
    expect(posts.every((p) => (p.body as { enforce_nonce?: boolean }).enforce_nonce === true)).toBe(true);
    expect(fake.violations).toEqual([]);
  }, 300_000);

  it(`Matrix: 0 duplicates in ${ROUNDS} rounds (the same transaction id: the homeserver answers with the first event)`, async () => {
    const fake = await startFakeHomeserver();
    const people = new People(fake);
    const room = people.inviteBot('@ada:fake.test', 'Announcements');
    people.join(fake.botUserId, room);
    const { shown, dropped } = await crashRounds({
      name: 'matrix',
      conversationId: matrixConversationId(fake.botUserId, room),
      env: {
        MATRIX_HOMESERVER_URL: fake.url,
        MATRIX_USER_ID: fake.botUserId,
        MATRIX_ACCESS_TOKEN: fake.botToken,
      },
      holdNextPost: () => fake.holdNext('sendMessage'),
      shown: (id) => count(people.botMessages(room), id),
      close: () => fake.close(),
    });
    console.info(`Matrix crash rounds: messages per round ${JSON.stringify(shown)}`);
    expect(dropped).toBe(ROUNDS);
    expect(shown).toEqual(Array(ROUNDS).fill(1));
    // Each round sent its transaction at least twice (before and after the kill; a busy machine may
    // add a retry of the SDK's own) under one transaction id; every later answer was the first event.
    const sends = fake.callsOf('sendMessage');
    const perTxn = new Map<string, number>();
    for (const c of sends) perTxn.set(String(c.params.txnId), (perTxn.get(String(c.params.txnId)) ?? 0) + 1);
    expect(perTxn.size).toBe(ROUNDS);
    expect([...perTxn.values()].every((n) => n >= 2)).toBe(true);
    expect(fake.violations).toEqual([]);
  }, 300_000);

  it(`Telegram (no idempotency key, posted again: at least once): ${ROUNDS} duplicates in ${ROUNDS} rounds, none lost`, async () => {
    const fake: FakeTelegram = await startFakeTelegram();
    const chat = fake.group('Announcements');
    const { shown, dropped } = await crashRounds({
      name: 'telegram',
      conversationId: `telegram:${fake.state.bot.id}:${chat.id}`,
      env: { TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot },
      holdNextPost: () => fake.holdNext('sendMessage'),
      shown: (id) => count(fake.state.messagesIn(chat.id), id),
      close: () => fake.close(),
    });
    const duplicates = shown.reduce((sum, n) => sum + n - 1, 0);
    console.info(
      `Telegram crash rounds: messages per round ${JSON.stringify(shown)}; duplicates ${duplicates}/${ROUNDS}`,
    );
    expect(dropped).toBe(ROUNDS);
    expect(shown.every((n) => n >= 1)).toBe(true);
    expect(duplicates).toBe(ROUNDS);
    fake.assertClean();
  }, 300_000);
});
