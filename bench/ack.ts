/**
 * Benchmark 1 — ack latency and command → first reply. Signed Slack slash commands (`/deploy mytool`,
 * each from its own channel so every card is matched to its command) at a steady rate against:
 * - a bare Bolt app that only acks (its own process): the ack baseline;
 * - Deckhand scaled out: `deckhand start --role web` (verifies, dedupes, acks, queues) and a separate
 *   `--role worker` (runs the command, posts the card), one Redis;
 * - Deckhand in one process (`--role all`, today's in-process path): the first-reply baseline.
 * All against the same fake Slack and the toolhost sandbox of this process. Figures: ack p50/p99 vs
 * Bolt at 200/s, first reply p50/p99 at 200/s and 5/s, and the web process's peak RSS under load
 * against its RSS idle.
 */
import { startToolhostSandbox } from '../src/sandbox/toolhost';
import { FakeSlack } from '../test/fakes/slack';
import { freePort } from '../test/support/redis-server';
import { figures } from './lib/ack-figures';
import { describeRun, type LoadRun, repliesOf } from './lib/command-load';
import type { BenchContext, Benchmark } from './lib/context';
import { BENCH_SIGNING_SECRET, type SlackDeckhand, slackEnv, startSlackDeckhand } from './lib/deckhand-slack';
import { commandLoadInChild } from './lib/load-child';
import { memoryBreakdown } from './lib/memory-breakdown';
import { BACKGROUND_NICE, redisPid, setNice } from './lib/priority';
import { type Child, peakRssOf, rssOf, spawnTs } from './lib/processes';
import type { BenchResult } from './lib/results';
import { sleep } from './lib/stats';

/** The rates and durations of one run. */
export interface Sizes {
  fast: number;
  slow: number;
  seconds: number;
  slowSeconds: number;
  warm: number;
}

async function measure(
  ctx: BenchContext,
  name: string,
  url: string,
  fake: FakeSlack,
  rate: number,
  seconds: number,
  warm: number,
): Promise<LoadRun> {
  const target = { url, secret: BENCH_SIGNING_SECRET, teamId: fake.options.teamId, fakeUrl: fake.url };
  if (warm > 0) {
    ctx.log(`ack: warming up ${name}`);
    await commandLoadInChild(ctx.dir, target, rate, warm);
    await sleep(500);
  }
  ctx.log(`ack: ${rate} commands/s for ${seconds} s against ${name}`);
  return commandLoadInChild(ctx.dir, target, rate, seconds);
}

/** 5/s (after a short warm-up at that rate), then 200/s; each run's replies awaited before the next. */
async function slowThenFast(ctx: BenchContext, name: string, url: string, fake: FakeSlack, sizes: Sizes) {
  const slow = await measure(ctx, name, url, fake, sizes.slow, sizes.slowSeconds, sizes.warm);
  const slowReplies = await repliesOf(fake, slow, 30_000);
  const fast = await measure(ctx, name, url, fake, sizes.fast, sizes.seconds, sizes.warm);
  const fastReplies = await repliesOf(fake, fast, 30_000);
  return { slow, slowReplies, fast, fastReplies };
}

/** Deckhand as web + worker processes on one Redis prefix. */
async function startSplit(
  ctx: BenchContext,
  fake: FakeSlack,
  sandbox: Parameters<typeof startSlackDeckhand>[2],
) {
  const env = { REDIS_KEY_PREFIX: 'bench-split:' };
  const worker = await startSlackDeckhand(ctx, fake, sandbox, 'split-worker', env, 'worker');
  const web = await startSlackDeckhand(ctx, fake, sandbox, 'split-web', env, 'web');
  return { web, worker };
}

function urlOf(deckhand: SlackDeckhand): string {
  return `http://127.0.0.1:${deckhand.port}`;
}

/** Figures of one load run at 200/s with every process at the normal priority (info only). */
async function samePriorityRun(
  ctx: BenchContext,
  url: string,
  fake: FakeSlack,
  sizes: Sizes,
  pids: (number | undefined)[],
) {
  for (const pid of pids) setNice(pid, 0);
  const run = await measure(
    ctx,
    'Deckhand web + worker, one priority',
    url,
    fake,
    sizes.fast,
    sizes.seconds,
    0,
  );
  const replies = await repliesOf(fake, run, 30_000);
  for (const pid of pids) setNice(pid, BACKGROUND_NICE);
  return { run, replies };
}

async function runAck(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const sizes: Sizes = ctx.quick
    ? { fast: 50, slow: 5, seconds: 2, slowSeconds: 2, warm: 1 }
    : { fast: 200, slow: 5, seconds: 20, slowSeconds: 12, warm: 2 };
  const sandbox = await startToolhostSandbox({ stepMs: 1500 });
  const fake = await FakeSlack.start();
  const children: Child[] = [];
  const notes: string[] = [];
  // This process (the fakes, the sandbox) and Redis in the background; see bench/lib/priority.ts.
  const background = [process.pid, await redisPid(ctx.redisUrl)];
  let prioritized = background.every((pid) => setNice(pid, BACKGROUND_NICE));
  const foreground = (child: Child) => {
    prioritized = setNice(child.process.pid, 0) && prioritized;
  };
  try {
    const boltPort = await freePort();
    const bolt = spawnTs('bench/ack-bolt.ts', { env: { ...slackEnv(fake), PORT: String(boltPort) } });
    children.push(bolt);
    foreground(bolt);
    await bolt.waitForLine('ready', 30_000);
    const baseline = await measure(
      ctx,
      'bare Bolt',
      `http://127.0.0.1:${boltPort}`,
      fake,
      sizes.fast,
      sizes.seconds,
      sizes.warm,
    );
    await bolt.stop();
    notes.push(describeRun('bare Bolt', baseline));

    const { web, worker } = await startSplit(ctx, fake, sandbox);
    children.push(web.child, worker.child);
    foreground(web.child);
    prioritized = setNice(worker.child.process.pid, BACKGROUND_NICE) && prioritized;
    await sleep(1000);
    const idleRss = rssOf(web.child.process.pid);
    const idleMemory = await memoryBreakdown(urlOf(web));
    // 5/s first: a backlog left by the 200/s run would otherwise count as first-reply time.
    const {
      slowReplies: splitSlowReplies,
      fast: split,
      fastReplies: splitReplies,
      slow: splitSlow,
    } = await slowThenFast(ctx, 'Deckhand web + worker', urlOf(web), fake, sizes);
    const peakRss = peakRssOf(web.child.process.pid);
    const loadedMemory = await memoryBreakdown(urlOf(web));
    // The same-priority run is an info figure: the smoke test (--quick) leaves it out.
    const same = ctx.quick
      ? { run: split, replies: splitReplies }
      : await samePriorityRun(ctx, urlOf(web), fake, sizes, [...background, worker.child.process.pid]);
    await web.child.stop();
    await worker.child.stop();
    notes.push(describeRun(`web + worker, ${sizes.fast}/s`, split, splitReplies));
    notes.push(describeRun(`web + worker, ${sizes.slow}/s`, splitSlow, splitSlowReplies));
    notes.push(
      describeRun(`web + worker, ${sizes.fast}/s, every process at one priority`, same.run, same.replies),
    );
    notes.push(
      `web process RSS: ${Math.round(idleRss / 2 ** 20)} MB idle, ${Math.round(peakRss / 2 ** 20)} MB peak (VmHWM) after the ${sizes.fast}/s load; idle: ${idleMemory}; after the load: ${loadedMemory}`,
    );

    const single = await startSlackDeckhand(ctx, fake, sandbox, 'single');
    children.push(single.child);
    foreground(single.child);
    const {
      slowReplies: inProcessSlowReplies,
      fast: inProcess,
      fastReplies: inProcessReplies,
      slow: inProcessSlow,
    } = await slowThenFast(ctx, 'Deckhand in one process', urlOf(single), fake, sizes);
    await single.child.stop();
    notes.push(describeRun(`one process, ${sizes.fast}/s`, inProcess, inProcessReplies));
    notes.push(describeRun(`one process, ${sizes.slow}/s`, inProcessSlow, inProcessSlowReplies));
    notes.push(
      prioritized
        ? `priorities: the worker, Redis and the fakes at nice ${BACKGROUND_NICE}; web, bare Bolt, one process and the load generator at 0 (bench/lib/priority.ts)`
        : 'priorities: could not be set (not allowed here): every process ran at one priority',
    );
    if (fake.violations.length > 0)
      notes.push(`fake Slack violations: ${fake.violations.slice(0, 3).join('; ')}`);

    return {
      id: 'ack',
      title: '1. Ack latency and first reply',
      status: 'ran',
      figures: figures({
        sizes,
        baseline,
        split,
        splitReplies,
        splitSlowReplies,
        samePriority: same.run,
        inProcess,
        inProcessReplies,
        inProcessSlowReplies,
        idleRss,
        peakRss,
      }),
      params: { rate: sizes.fast, slowRate: sizes.slow, seconds: sizes.seconds, command: '/deploy mytool' },
      notes,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    for (const child of children) await child.stop();
    for (const pid of background) setNice(pid, 0);
    await fake.close();
    await sandbox.close();
  }
}

/** The ack latency benchmark. */
export const ackBenchmark: Benchmark = { id: 'ack', title: '1. Ack latency and first reply', run: runAck };
