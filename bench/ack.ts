/**
 * Benchmark 1 — ack latency and command → first reply. Signed Slack slash commands (`/deploy mytool`,
 * each from its own channel so every card is matched to its command) at a steady rate against:
 * - a bare Bolt app that only acks (its own process): the ack baseline;
 * - Deckhand scaled out: `deckhand start --role web` (verifies, dedupes, acks, queues) and a separate
 *   `--role worker` (runs the command, posts the card), one Redis;
 * - Deckhand in one process (`--role all`, today's in-process path): the first-reply baseline.
 * All against the same fake Slack, with toolhost sandboxes in this process (one per Deckhand set-up),
 * all started before the first measurement. A figure and its baseline are measured in alternating
 * rounds (A, B, A, B, …) and pooled, so a change in the machine's state during the run falls on both.
 * Figures: ack p50/p99 vs Bolt at 200/s, first reply p50/p99 at 5/s (vs one process) and at 200/s,
 * and the web process's peak RSS under load against its RSS idle.
 */
import { join } from 'node:path';
import { startToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { FakeSlack } from '../test/fakes/slack';
import { freePort } from '../test/support/redis-server';
import { figures } from './lib/ack-figures';
import { describeRun, repliesOf } from './lib/command-load';
import type { BenchContext, Benchmark } from './lib/context';
import { slackEnv, startSlackDeckhand } from './lib/deckhand-slack';
import { startLoadGenerator } from './lib/load-child';
import { memoryBreakdown } from './lib/memory-breakdown';
import { describePlacement, redisPid, toBackground, toForeground, weakest } from './lib/priority';
import { type Child, peakRssOf, resetPeakRss, rssOf, spawnTs } from './lib/processes';
import type { BenchResult } from './lib/results';
import { alternate, type Pooled, type Rig, round, type Target } from './lib/rounds';
import { sleep } from './lib/stats';

/** The rates, round lengths and round counts of one run. */
export interface Sizes {
  fast: number;
  slow: number;
  /** Seconds of one round at the fast rate, and how many rounds each side gets. */
  seconds: number;
  rounds: number;
  slowSeconds: number;
  slowRounds: number;
  warm: number;
}

async function runAck(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const sizes: Sizes = ctx.quick
    ? { fast: 50, slow: 5, seconds: 2, rounds: 1, slowSeconds: 2, slowRounds: 1, warm: 1 }
    : { fast: 200, slow: 5, seconds: 6, rounds: 4, slowSeconds: 6, slowRounds: 4, warm: 2 };
  // Each Deckhand set-up gets a platform of its own: on a shared one, the set-up whose remembered
  // deployment of `mytool` is still running answers with one call ("already running"), while the
  // other's commands go through the lock, a start refused with 409 and a read of the latest
  // deployment — four calls — so the cheaper side would depend on which had deployed last.
  const sandbox = await startToolhostSandbox({ stepMs: 1500 });
  const singleSandbox = await startToolhostSandbox({ stepMs: 1500 });
  const fake = await FakeSlack.start();
  const children: Child[] = [];
  const notes: string[] = [];
  // This process (the fakes, the sandbox) and Redis in the background; see bench/lib/priority.ts.
  const background = [process.pid, await redisPid(ctx.redisUrl)];
  const placements = background.map(toBackground);
  const foreground = (child: Child) => {
    if (!toForeground(child.process.pid)) placements.push('none');
    return child;
  };
  try {
    const worker = await startSlackDeckhand(ctx, fake, sandbox, 'split-worker', splitEnv, 'worker');
    children.push(worker.child);
    placements.push(toBackground(worker.child.process.pid));
    const web = await startSlackDeckhand(ctx, fake, sandbox, 'split-web', splitEnv, 'web');
    children.push(foreground(web.child));
    const single = await startSlackDeckhand(ctx, fake, singleSandbox, 'single');
    children.push(foreground(single.child));
    const boltPort = await freePort();
    const bolt = spawnTs('bench/ack-bolt.ts', {
      env: { ...slackEnv(fake), PORT: String(boltPort) },
      // --profile: the baseline too, so the two can be read side by side.
      ...(ctx.profileDir ? { cpuProfDir: join(ctx.profileDir, 'bare-bolt') } : {}),
    });
    children.push(foreground(bolt));
    await bolt.waitForLine('ready', 30_000);
    const load = startLoadGenerator(ctx.dir);
    children.push(load.child);
    const rig: Rig = { ctx, fake, load };

    const split: Target = {
      name: 'Deckhand web + worker',
      url: urlOf(web.port),
      answers: true,
      pid: web.child.process.pid,
      runnerPid: worker.child.process.pid,
    };
    const inProcess: Target = {
      name: 'Deckhand in one process',
      url: urlOf(single.port),
      answers: true,
      pid: single.child.process.pid,
    };
    const bare: Target = { name: 'bare Bolt', url: urlOf(boltPort), answers: false, pid: bolt.process.pid };

    // Idle: the web process 10 s after start-up (as the idle benchmark reads it), before any load; its
    // peak is counted from here.
    await sleep(ctx.quick ? 3000 : 10_000);
    const webPid = web.child.process.pid;
    const idleRss = rssOf(webPid);
    const idleMemory = await memoryBreakdown(split.url);
    const peakReset = resetPeakRss(webPid);

    const [splitSlow, inProcessSlow] = await alternate(
      rig,
      [split, inProcess],
      sizes.slow,
      sizes.slowSeconds,
      sizes.slowRounds,
      sizes.warm,
    );
    const [baseline, splitFast] = await alternate(
      rig,
      [bare, split],
      sizes.fast,
      sizes.seconds,
      sizes.rounds,
      sizes.warm,
    );
    const peakRss = peakRssOf(webPid);
    const loadedMemory = await memoryBreakdown(split.url);
    // Info figures: the one-process Deckhand at the fast rate, and (left out of the smoke test,
    // --quick) every process at one priority and the web with the worker paused.
    ctx.log(`ack: ${sizes.fast} commands/s for ${sizes.seconds} s against ${inProcess.name}`);
    const inProcessFast = await round(rig, inProcess, sizes.fast, sizes.seconds);
    const same = ctx.quick ? splitFast : await samePriority(rig, split, sizes, background, worker.child);
    const alone = ctx.quick ? splitFast : await workerPaused(rig, split, sizes, worker.child);
    if (!baseline || !splitFast || !splitSlow || !inProcessSlow || !same || !alone)
      throw new Error('a round is missing');

    const rounds = `${sizes.rounds} rounds of ${sizes.seconds} s`;
    notes.push(describeRun(`bare Bolt, ${sizes.fast}/s, ${rounds}`, baseline.run));
    notes.push(describeRun(`web + worker, ${sizes.fast}/s, ${rounds}`, splitFast.run, splitFast.replies));
    notes.push(describeRun(`web + worker, ${sizes.slow}/s`, splitSlow.run, splitSlow.replies));
    notes.push(describeRun(`one process, ${sizes.slow}/s`, inProcessSlow.run, inProcessSlow.replies));
    if (!ctx.quick) {
      notes.push(
        describeRun(`web + worker, ${sizes.fast}/s, every process at one priority`, same.run, same.replies),
      );
      notes.push(
        describeRun(
          `web, ${sizes.fast}/s, the worker paused (cards after it resumed)`,
          alone.run,
          alone.replies,
        ),
      );
    }
    notes.push(describeRun(`one process, ${sizes.fast}/s`, inProcessFast.run, inProcessFast.replies));
    notes.push(
      `web process RSS: ${Math.round(idleRss / 2 ** 20)} MB idle (${ctx.quick ? 3 : 10} s after start-up, before any load), ${Math.round(peakRss / 2 ** 20)} MB peak (VmHWM${peakReset ? ', reset at idle' : ', since start-up'}) through the ${sizes.slow}/s and ${sizes.fast}/s rounds; idle: ${idleMemory}; after the load: ${loadedMemory}`,
    );
    notes.push(describePlacement(weakest(placements)));
    if (fake.violations.length > 0)
      notes.push(`fake Slack violations: ${fake.violations.slice(0, 3).join('; ')}`);

    return {
      id: 'ack',
      title: '1. Ack latency and first reply',
      status: 'ran',
      figures: figures({
        sizes,
        baseline: baseline.run,
        split: splitFast.run,
        splitReplies: splitFast.replies,
        splitSlowReplies: splitSlow.replies,
        samePriority: same.run,
        workerPaused: alone.run,
        inProcess: inProcessFast.run,
        inProcessReplies: inProcessFast.replies,
        inProcessSlowReplies: inProcessSlow.replies,
        idleRss,
        peakRss,
        baselineSched: baseline.sched,
        splitSched: splitFast.sched,
        workerCpuSeconds: splitFast.runnerCpuSeconds,
      }),
      params: {
        rate: sizes.fast,
        slowRate: sizes.slow,
        seconds: sizes.seconds * sizes.rounds,
        slowSeconds: sizes.slowSeconds * sizes.slowRounds,
        command: '/deploy mytool',
      },
      notes,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    for (const child of children) await child.stop();
    for (const pid of background) toForeground(pid);
    await fake.close();
    await sandbox.close();
    await singleSandbox.close();
  }
}

/** The web + worker processes share one key prefix. */
const splitEnv = { REDIS_KEY_PREFIX: 'bench-split:' };

function urlOf(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** One round at the fast rate with every process at the normal priority (an info figure). */
async function samePriority(
  rig: Rig,
  split: Target,
  sizes: Sizes,
  background: (number | undefined)[],
  worker: Child,
): Promise<Pooled> {
  const pids = [...background, worker.process.pid];
  for (const pid of pids) toForeground(pid);
  rig.ctx.log(
    `ack: ${sizes.fast} commands/s for ${sizes.seconds} s against ${split.name}, every process at one priority`,
  );
  try {
    return await round(rig, split, sizes.fast, sizes.seconds);
  } finally {
    for (const pid of pids) toBackground(pid);
  }
}

/**
 * One round at the fast rate with the worker paused (SIGSTOP), its commands left queued in Redis and
 * run once it resumes (their cards are awaited): the web process's ack tail without the worker's
 * load on the same two cores, which a deployment gives a worker of its own (an info figure).
 */
async function workerPaused(rig: Rig, split: Target, sizes: Sizes, worker: Child): Promise<Pooled> {
  const pid = worker.process.pid;
  rig.ctx.log(
    `ack: ${sizes.fast} commands/s for ${sizes.seconds} s against ${split.name}, the worker paused`,
  );
  if (pid !== undefined) process.kill(pid, 'SIGSTOP');
  let paused: Pooled;
  try {
    paused = await round(rig, { ...split, answers: false }, sizes.fast, sizes.seconds);
  } finally {
    if (pid !== undefined) process.kill(pid, 'SIGCONT');
  }
  return { run: paused.run, replies: await repliesOf(rig.fake, paused.run, 60_000) };
}

/** The ack latency benchmark. */
export const ackBenchmark: Benchmark = { id: 'ack', title: '1. Ack latency and first reply', run: runAck };
