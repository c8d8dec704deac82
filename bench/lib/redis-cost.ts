/**
 * What Deckhand costs Redis, counted (not timed): the requests each process sends (through
 * {@link countRedisCalls}), the commands Redis runs for them (INFO commandstats, commands inside
 * scripts included), per `/deploy`, per watch poll and per idle second — and the sequential round
 * trips of the worker between a queued `/deploy` and its first card, from how much its first reply
 * slows down when each worker↔Redis round trip is made longer.
 */
import { type JobsOptions, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { followLooks } from '../../src/metrics';
import { watchJobId } from '../../src/queue/queues';
import type { CallCounts } from '../../test/support/redis-calls';
import { commandsBetween, serverCommandStats } from '../../test/support/redis-calls';
import { RedisRelay } from '../../test/support/redis-relay';
import { waitFor } from '../../test/support/wait';
import type { CostDeckhand } from './cost-deckhand';
import { sleep } from './stats';

/** The counter the measurements read (see `test/support/redis-calls.ts`). */
export interface Counter {
  of(port: number): CallCounts;
  /** Commands in flight on the port, blocking waits left out. */
  pending(port: number): number;
}

/** What one `/deploy` cost. */
export interface DeployCost {
  webCalls: number;
  workerCalls: number;
  /** Commands Redis ran, in scripts included. */
  commands: number;
  byName: Record<string, number>;
  /** Worker requests by command name. */
  workerByName: Record<string, number>;
  firstReplyMs: number;
}

const ADMIN = { id: 'UADMIN', name: 'ada' } as const;

function diffNames(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, n] of Object.entries(after))
    if (n - (before[name] ?? 0) > 0) out[name] = n - (before[name] ?? 0);
  return out;
}

/** Waits until the worker has nothing in flight (its last job's completion included). */
async function workerQuiet(counter: Counter, port: number): Promise<void> {
  await waitFor(async () => {
    if (counter.pending(port) > 0) return false;
    await sleep(30);
    return counter.pending(port) === 0;
  }, 30_000);
}

/** Types `/deploy <tool>` in `channel` and counts it until its job has ended. */
export async function measureDeploy(
  deckhand: CostDeckhand,
  admin: Redis,
  counter: Counter,
  channel: string,
  tool: string,
): Promise<DeployCost> {
  const { web, worker } = deckhand;
  const before = { web: counter.of(web.relay.port), worker: counter.of(worker.relay.port) };
  const stats = await serverCommandStats(admin);
  const started = Date.now();
  await deckhand.driver.command(ADMIN, channel, `/deploy ${tool}`);
  await waitFor(() => deckhand.fake.channelMessages(channel).length > 0, 30_000);
  const firstReplyMs = Date.now() - started;
  // The job leaves its lane last: then nothing of it is left in flight.
  await waitFor(
    () => (counter.of(worker.relay.port).byName.lrem ?? 0) > (before.worker.byName.lrem ?? 0),
    30_000,
  );
  await workerQuiet(counter, worker.relay.port);
  const after = { web: counter.of(web.relay.port), worker: counter.of(worker.relay.port) };
  const commands = commandsBetween(stats, await serverCommandStats(admin));
  return {
    webCalls: after.web.calls - before.web.calls,
    workerCalls: after.worker.calls - before.worker.calls,
    commands: commands.total,
    byName: commands.byName,
    workerByName: diffNames(after.worker.byName, before.worker.byName),
    firstReplyMs,
  };
}

/** Idle cost: worker requests and Redis commands (both processes) per second over `ms`. */
export async function measureIdle(
  deckhand: CostDeckhand,
  admin: Redis,
  counter: Counter,
  ms: number,
): Promise<{ callsPerSecond: number; commandsPerSecond: number; byName: Record<string, number> }> {
  const port = deckhand.worker.relay.port;
  const calls = counter.of(port).calls + counter.of(deckhand.web.relay.port).calls;
  const stats = await serverCommandStats(admin);
  await sleep(ms);
  const commands = commandsBetween(stats, await serverCommandStats(admin));
  const callsAfter = counter.of(port).calls + counter.of(deckhand.web.relay.port).calls;
  return {
    callsPerSecond: ((callsAfter - calls) * 1000) / ms,
    commandsPerSecond: (commands.total * 1000) / ms,
    byName: commands.byName,
  };
}

/** Looks the watches of this process made so far (the worker runs in this process). */
async function watchLooks(): Promise<number> {
  const { values } = await followLooks.get();
  return values.find((v) => v.labels.follow === 'watch')?.value ?? 0;
}

/**
 * Cost of one poll of the running deployment watch of `tool` (the newest), over `ms`: the worker's
 * requests and Redis's commands in that time per poll, the idle traffic of the same seconds (BullMQ's
 * periodic checks, the lock renewal of the held watch) included, so the figure is an upper bound.
 */
export async function measureWatchPolls(
  deckhand: CostDeckhand,
  admin: Redis,
  counter: Counter,
  bullPrefix: string,
  tool: string,
  ms: number,
): Promise<{
  polls: number;
  callsPerPoll: number;
  commandsPerPoll: number;
  workerByName: Record<string, number>;
}> {
  const pattern = `${bullPrefix}:watch:${watchJobId('deployment', tool, '*')}`;
  const [key] = (await admin.keys(pattern)).filter((k) => k.split(':').length === pattern.split(':').length);
  if (!key) throw new Error(`no deployment watch of ${tool} (${pattern})`);
  const port = deckhand.worker.relay.port;
  const looks = await watchLooks();
  const calls = counter.of(port).calls;
  const names = counter.of(port).byName;
  const stats = await serverCommandStats(admin);
  await sleep(ms);
  const polls = (await watchLooks()) - looks;
  const callsMade = counter.of(port).calls - calls;
  const workerByName = diffNames(counter.of(port).byName, names);
  const commands = commandsBetween(stats, await serverCommandStats(admin), ['info', 'keys']);
  if (polls === 0) throw new Error('the watch did not poll');
  return {
    polls,
    callsPerPoll: callsMade / polls,
    commandsPerPoll: commands.total / polls,
    workerByName,
  };
}

/**
 * What one BullMQ job costs on its own, in the same run: added, run by a worker with the command
 * queue's concurrency and doing nothing, completed and kept as a command's job is — the part of a
 * command's figures no code of Deckhand's can take away while each command is a BullMQ job. The
 * least of `rounds`.
 */
export async function measureBareJob(
  admin: Redis,
  counter: Counter,
  redisPort: number,
  options: { concurrency: number; keep: NonNullable<JobsOptions['removeOnComplete']>; rounds: number },
): Promise<{ calls: number; commands: number }> {
  const relay = await RedisRelay.start(redisPort);
  const connection = { host: '127.0.0.1', port: relay.port, maxRetriesPerRequest: null };
  const prefix = 'bench-bare';
  const queue = new Queue('bare', { connection, prefix });
  const worker = new Worker('bare', async () => 'done', {
    connection,
    prefix,
    concurrency: options.concurrency,
  });
  const least = { calls: Number.POSITIVE_INFINITY, commands: Number.POSITIVE_INFINITY };
  try {
    await worker.waitUntilReady();
    await queue.waitUntilReady();
    await sleep(500);
    for (let round = 0; round < options.rounds; round++) {
      const calls = counter.of(relay.port).calls;
      const stats = await serverCommandStats(admin);
      const done = new Promise((resolve) => worker.once('completed', resolve));
      await queue.add('bare', { round }, { jobId: `bare-${round}`, removeOnComplete: options.keep });
      await done;
      await workerQuiet(counter, relay.port);
      const commands = commandsBetween(stats, await serverCommandStats(admin)).total;
      least.calls = Math.min(least.calls, counter.of(relay.port).calls - calls);
      least.commands = Math.min(least.commands, commands);
    }
    return least;
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await relay.close();
  }
}
