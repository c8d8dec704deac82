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
import { commandLoad, describeRun, type LoadRun, type Replies, repliesOf } from './lib/command-load';
import type { BenchContext, Benchmark } from './lib/context';
import { BENCH_SIGNING_SECRET, type SlackDeckhand, slackEnv, startSlackDeckhand } from './lib/deckhand-slack';
import { type Child, peakRssOf, rssOf, spawnTs } from './lib/processes';
import {
  type BenchResult,
  compareFigure,
  type Figure,
  infoFigure,
  limitFigure,
  ratioFigure,
} from './lib/results';
import { maxOf, percentile, sleep } from './lib/stats';

const SLACK_DEADLINE_MS = 3000;

interface Sizes {
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
  if (warm > 0) {
    ctx.log(`ack: warming up ${name}`);
    await commandLoad(url, fake, BENCH_SIGNING_SECRET, rate, warm);
    await sleep(500);
  }
  ctx.log(`ack: ${rate} commands/s for ${seconds} s against ${name}`);
  return commandLoad(url, fake, BENCH_SIGNING_SECRET, rate, seconds);
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

async function runAck(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const sizes: Sizes = ctx.quick
    ? { fast: 50, slow: 5, seconds: 2, slowSeconds: 2, warm: 1 }
    : { fast: 200, slow: 5, seconds: 20, slowSeconds: 12, warm: 2 };
  const sandbox = await startToolhostSandbox({ stepMs: 1500 });
  const fake = await FakeSlack.start();
  const children: Child[] = [];
  const notes: string[] = [];
  try {
    const boltPort = await freePort();
    const bolt = spawnTs('bench/ack-bolt.ts', { env: { ...slackEnv(fake), PORT: String(boltPort) } });
    children.push(bolt);
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
    await sleep(1000);
    const idleRss = rssOf(web.child.process.pid);
    // 5/s first: a backlog left by the 200/s run would otherwise count as first-reply time.
    const {
      slowReplies: splitSlowReplies,
      fast: split,
      fastReplies: splitReplies,
      slow: splitSlow,
    } = await slowThenFast(ctx, 'Deckhand web + worker', urlOf(web), fake, sizes);
    const peakRss = peakRssOf(web.child.process.pid);
    await web.child.stop();
    await worker.child.stop();
    notes.push(describeRun(`web + worker, ${sizes.fast}/s`, split, splitReplies));
    notes.push(describeRun(`web + worker, ${sizes.slow}/s`, splitSlow, splitSlowReplies));
    notes.push(
      `web process RSS: ${Math.round(idleRss / 2 ** 20)} MB idle, ${Math.round(peakRss / 2 ** 20)} MB peak (VmHWM) after the ${sizes.fast}/s load`,
    );

    const single = await startSlackDeckhand(ctx, fake, sandbox, 'single');
    children.push(single.child);
    const {
      slowReplies: inProcessSlowReplies,
      fast: inProcess,
      fastReplies: inProcessReplies,
      slow: inProcessSlow,
    } = await slowThenFast(ctx, 'Deckhand in one process', urlOf(single), fake, sizes);
    await single.child.stop();
    notes.push(describeRun(`one process, ${sizes.fast}/s`, inProcess, inProcessReplies));
    notes.push(describeRun(`one process, ${sizes.slow}/s`, inProcessSlow, inProcessSlowReplies));
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
    await fake.close();
    await sandbox.close();
  }
}

interface Measured {
  sizes: Sizes;
  baseline: LoadRun;
  split: LoadRun;
  splitReplies: Replies;
  splitSlowReplies: Replies;
  inProcess: LoadRun;
  inProcessReplies: Replies;
  inProcessSlowReplies: Replies;
  idleRss: number;
  peakRss: number;
}

function figures(m: Measured): Figure[] {
  const p = (values: number[], q: number) => percentile(values, q);
  const { fast, slow } = m.sizes;
  const over = m.split.acks.filter((ms) => ms > SLACK_DEADLINE_MS).length + m.split.timeouts + m.split.errors;
  return [
    ratioFigure(
      'ack p99 (web + worker)',
      p(m.split.acks, 99),
      p(m.baseline.acks, 99),
      'bare Bolt',
      1.2,
      'ms',
    ),
    compareFigure('ack p50 (web + worker)', p(m.split.acks, 50), p(m.baseline.acks, 50), 'bare Bolt', 'ms'),
    limitFigure('acks over 3 s (or failed)', over, 0),
    ratioFigure(
      `first reply p50 at ${slow}/s`,
      p(m.splitSlowReplies.latencies, 50),
      p(m.inProcessSlowReplies.latencies, 50),
      'one process',
      1.2,
      'ms',
    ),
    ratioFigure(
      `first reply p99 at ${slow}/s`,
      p(m.splitSlowReplies.latencies, 99),
      p(m.inProcessSlowReplies.latencies, 99),
      'one process',
      1.2,
      'ms',
    ),
    limitFigure(`first reply p99 at ${fast}/s`, p(m.splitReplies.latencies, 99), 2000, 'ms'),
    compareFigure(
      `first reply p50 at ${fast}/s`,
      p(m.splitReplies.latencies, 50),
      p(m.inProcessReplies.latencies, 50),
      'one process',
      'ms',
    ),
    limitFigure(`commands at ${fast}/s without a card`, m.splitReplies.sent - m.splitReplies.answered, 0),
    limitFigure(
      'commands answered more than once',
      m.splitReplies.answeredTwice + m.splitSlowReplies.answeredTwice,
      0,
    ),
    ratioFigure(
      'web process peak RSS under load',
      m.peakRss / 2 ** 20,
      m.idleRss / 2 ** 20,
      'idle',
      1.3,
      'MB',
    ),
    compareFigure(
      'ack p99 (one process)',
      p(m.inProcess.acks, 99),
      p(m.baseline.acks, 99),
      'bare Bolt',
      'ms',
    ),
    infoFigure('ack max (web + worker)', maxOf(m.split.acks), 'ms'),
    infoFigure('achieved rate', m.split.achievedRate, 'req/s'),
  ];
}

/** The ack latency benchmark. */
export const ackBenchmark: Benchmark = { id: 'ack', title: '1. Ack latency and first reply', run: runAck };
