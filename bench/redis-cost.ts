/**
 * Redis cost of Deckhand, in counts (the same on every machine): a web and a worker (in this process,
 * each through its own relay to the run's Redis, see `lib/cost-deckhand.ts`) on Slack over HTTP and
 * the toolhost sandbox. Figures, each against its target:
 * - per `/deploy`: requests of the web and of the worker (a pipeline is one), and commands Redis ran
 *   for it (INFO commandstats, commands inside scripts included) — for a deploy that starts a
 *   deployment (its watch and announcements included) and for one that finds it already running;
 * - sequential worker↔Redis round trips between the queued `/deploy` and its first card: the first
 *   reply's added time when every worker round trip is made `2 × DELAY_MS` longer, divided by that;
 * - per poll of a deployment watch (the idle traffic of the same seconds included), and per second of
 *   an idle web + worker.
 */
import { Redis } from 'ioredis';
import { COMMAND_JOB_OPTIONS } from '../src/queue/command-queue';
import { bullPrefix } from '../src/queue/queues';
import { COMMAND_CONCURRENCY } from '../src/wiring/workers';
import { countRedisCalls } from '../test/support/redis-calls';
import type { BenchContext, Benchmark } from './lib/context';
import { startCostDeckhand } from './lib/cost-deckhand';
import {
  type DeployCost,
  measureBareJob,
  measureDeploy,
  measureIdle,
  measureWatchPolls,
} from './lib/redis-cost';
import { type BenchResult, infoFigure, limitFigure } from './lib/results';
import { percentile, round, sleep } from './lib/stats';

const TITLE = '9. Redis cost per command';
/** The baseline of the per-command figures. */
const BARE_JOB = 'one BullMQ job that does nothing: add, run, complete';
/** Added one-way worker↔Redis delay when counting sequential round trips. */
const DELAY_MS = 40;

function top(byName: Record<string, number>, n = 8): string {
  return Object.entries(byName)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
}

async function runRedisCost(ctx: BenchContext): Promise<BenchResult> {
  const started = Date.now();
  const url = new URL(ctx.redisUrl);
  const prefix = 'bench-cost:';
  const counter = countRedisCalls();
  const admin = new Redis({ host: url.hostname, port: Number(url.port) });
  const deckhand = await startCostDeckhand({ redisPort: Number(url.port), prefix });
  let channel = 0;
  const deploy = (tool: string): Promise<DeployCost> => {
    channel += 1;
    return measureDeploy(deckhand, admin, counter, `CCOST${channel}`, tool);
  };
  try {
    // Start-up traffic settles (BullMQ's first checks), then an idle stretch.
    await sleep(ctx.quick ? 1000 : 3000);
    // Longer than a background queue's idle wait (a minute), so every worker's periodic check counts.
    const idleMs = ctx.quick ? 5000 : 65_000;
    ctx.log(`redis-cost: idle for ${idleMs / 1000} s`);
    const idle = await measureIdle(deckhand, admin, counter, idleMs);
    ctx.log('redis-cost: /deploy that starts a deployment');
    const fresh = await deploy('mytool');
    const watchMs = ctx.quick ? 3000 : 10_000;
    ctx.log(`redis-cost: watch polls over ${watchMs / 1000} s`);
    const watch = await measureWatchPolls(
      deckhand,
      admin,
      counter,
      bullPrefix(prefix, 'watch'),
      'mytool',
      watchMs,
    );
    const rounds = ctx.quick ? 3 : 7;
    const near: number[] = [];
    const far: number[] = [];
    const costs: DeployCost[] = [];
    for (let i = 0; i < rounds; i++) {
      deckhand.worker.relay.delayMs = 0;
      costs.push(await deploy('mytool'));
      near.push((costs.at(-1) as DeployCost).firstReplyMs);
      deckhand.worker.relay.delayMs = DELAY_MS;
      far.push((await deploy('mytool')).firstReplyMs);
    }
    deckhand.worker.relay.delayMs = 0;
    const bare = await measureBareJob(admin, counter, Number(url.port), {
      concurrency: COMMAND_CONCURRENCY,
      keep: COMMAND_JOB_OPTIONS.removeOnComplete,
      rounds,
    });
    const sequential = (percentile(far, 50) - percentile(near, 50)) / (2 * DELAY_MS);
    const perCommand = (cost: DeployCost) => cost.webCalls + cost.workerCalls;
    // The least of the repeats: a repeat may also count a poll of the running watch, or an idle
    // worker's periodic check, that happened in the same few milliseconds.
    const again = costs.reduce((a, b) => (perCommand(b) + b.commands < perCommand(a) + a.commands ? b : a));
    return {
      id: 'redis-cost',
      title: TITLE,
      status: 'ran',
      figures: [
        {
          ...limitFigure(
            '/deploy (deployment already running): requests, web + worker',
            perCommand(again),
            10,
          ),
          baseline: bare.calls,
          baselineLabel: BARE_JOB,
        },
        {
          ...limitFigure('/deploy (deployment already running): Redis commands', again.commands, 40),
          baseline: bare.commands,
          baselineLabel: BARE_JOB,
        },
        limitFigure('/deploy → first card: sequential worker round trips', round(sequential, 1), 4),
        infoFigure('/deploy (starts a deployment): requests, web + worker', perCommand(fresh)),
        infoFigure('/deploy (starts a deployment): Redis commands', fresh.commands),
        limitFigure('watch poll: worker requests', round(watch.callsPerPoll, 1), 2),
        infoFigure('watch poll: Redis commands', round(watch.commandsPerPoll, 1)),
        limitFigure('idle web + worker: Redis commands per second', round(idle.commandsPerSecond, 1), 5),
        infoFigure('idle web + worker: requests per second', round(idle.callsPerSecond, 1)),
      ],
      params: { idleMs, watchMs, rounds, delayMs: DELAY_MS, watchPolls: watch.polls },
      notes: [
        `/deploy (already running): web ${again.webCalls} + worker ${again.workerCalls} requests; worker by command: ${top(again.workerByName, 12)}; Redis: ${top(again.byName)}.`,
        `/deploy (starts a deployment): web ${fresh.webCalls} + worker ${fresh.workerCalls} requests; Redis: ${top(fresh.byName)}.`,
        `/deploy (already running) requests, web + worker, in each repeat: ${costs.map(perCommand).join(', ')}.`,
        `first reply at +0 / +${2 * DELAY_MS} ms worker RTT (median of ${rounds}): ${round(percentile(near, 50), 0)} / ${round(percentile(far, 50), 0)} ms.`,
        `watch: ${watch.polls} polls; worker requests by command: ${top(watch.workerByName, 12)}.`,
        `idle Redis commands: ${top(idle.byName)} over ${idleMs / 1000} s.`,
      ],
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await deckhand.close();
    counter.stop();
    admin.disconnect();
  }
}

/** The Redis-cost benchmark. */
export const redisCostBenchmark: Benchmark = { id: 'redis-cost', title: TITLE, run: runRedisCost };
