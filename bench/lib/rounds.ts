/**
 * Load rounds of the ack benchmark: one round of signed slash commands against a server (and its
 * cards awaited), and alternating rounds against several servers (A, B, A, B, …), pooled per server,
 * with each server's main-thread scheduler times around its rounds.
 */
import type { FakeSlack } from '../../test/fakes/slack';
import { type LoadRun, poolReplies, poolRuns, type Replies, repliesOf } from './command-load';
import type { BenchContext } from './context';
import { BENCH_SIGNING_SECRET } from './deckhand-slack';
import type { LoadGenerator } from './load-child';
import { cpuSecondsOf } from './processes';
import { type SchedTimes, schedDelta, schedSum, schedTimesOf } from './schedstat';
import { maxOf, percentile, round as round2 } from './stats';

/** A server under load: its Slack events URL's origin, and whether its commands get cards. */
export interface Target {
  name: string;
  url: string;
  answers: boolean;
  /** Its process, whose main thread's scheduler times are read around each round. */
  pid: number | undefined;
  /** A process that runs its commands (a worker), whose CPU time is read around each round. */
  runnerPid?: number | undefined;
}

/** The rounds of one target, pooled. */
export interface Pooled {
  run: LoadRun;
  replies: Replies;
  /** Its main thread's time on a CPU and waiting for one, over the rounds. */
  sched?: SchedTimes | undefined;
  /** CPU seconds (all threads) its runner process used over the rounds, cards included. */
  runnerCpuSeconds?: number | undefined;
}

/** What every round runs on: the run's context, the fake Slack, and the one load generator. */
export interface Rig {
  ctx: BenchContext;
  fake: FakeSlack;
  load: LoadGenerator;
}

/** Runs the load generator once against `target`; awaits the run's cards when it answers. */
export async function round({ fake, load }: Rig, target: Target, rate: number, seconds: number) {
  const run = await load.run(
    { url: target.url, secret: BENCH_SIGNING_SECRET, teamId: fake.options.teamId, fakeUrl: fake.url },
    rate,
    seconds,
  );
  const replies = target.answers
    ? await repliesOf(fake, run, 30_000)
    : { latencies: [], answered: 0, answeredTwice: 0, sent: run.sent };
  return { run, replies };
}

/**
 * A warm-up round for each target, then `rounds` rounds of each in turn (A, B, A, B, …), each
 * waiting for the cards of the one before; the rounds of each target are pooled.
 */
export async function alternate(
  rig: Rig,
  targets: Target[],
  rate: number,
  seconds: number,
  rounds: number,
  warm: number,
): Promise<Pooled[]> {
  for (const target of targets) {
    rig.ctx.log(`ack: warming up ${target.name} at ${rate}/s`);
    await round(rig, target, rate, warm);
  }
  const results = targets.map(() => [] as Pooled[]);
  for (let n = 1; n <= rounds; n += 1) {
    for (const [i, target] of targets.entries()) {
      rig.ctx.log(`ack: round ${n}/${rounds}: ${rate} commands/s for ${seconds} s against ${target.name}`);
      const before = schedTimesOf(target.pid);
      const runnerBefore = cpuSecondsOf(target.runnerPid);
      const result = await round(rig, target, rate, seconds);
      const acks = result.run.acks;
      rig.ctx.log(
        `ack:   ${target.name}: ack p50 ${round2(percentile(acks, 50))} ms, p99 ${round2(percentile(acks, 99))} ms, max ${round2(maxOf(acks))} ms`,
      );
      results[i]?.push({
        ...result,
        sched: schedDelta(before, schedTimesOf(target.pid)),
        runnerCpuSeconds: cpuSecondsOf(target.runnerPid) - runnerBefore,
      });
    }
  }
  return results.map((list) => ({
    run: poolRuns(list.map((r) => r.run)),
    replies: poolReplies(list.map((r) => r.replies)),
    sched: schedSum(list.map((r) => r.sched)),
    runnerCpuSeconds: list.reduce((sum, r) => sum + (r.runnerCpuSeconds ?? Number.NaN), 0),
  }));
}
