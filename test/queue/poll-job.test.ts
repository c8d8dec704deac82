/**
 * The one poll loop of the queues (src/queue/poll-job.ts), on a real BullMQ queue and worker: a job
 * is held by its worker between looks, its data carries what the looks changed, and a worker that
 * goes away leaves the follow to the next one, which continues from the stored data.
 */
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, UnreachableError } from '../../src/core/errors';
import { silentLogger } from '../../src/log';
import {
  createPollProcessor,
  type GiveUpReason,
  LOOKS_IN_FLIGHT,
  letFollowsGo,
  type PollSpec,
} from '../../src/queue/poll-job';
import { testPrefix, testRedis } from '../support/redis';
import { waitFor } from '../support/wait';

interface Data {
  name: string;
  startedAt: number;
  attempt?: number;
  errors: number;
  seen?: number[];
}

/** A scripted resource: each look takes the next step (a value, or an error to throw). */
type Step = number | Error;

let redis: Redis;
const prefix = testPrefix().replace(/:$/, '');
let queue: Queue;
const workers: Worker[] = [];

beforeAll(() => {
  redis = testRedis();
  queue = new Queue('poll-test', { connection: redis, prefix });
});
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close();
});
afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  await redis.quit();
});

/** A spec over a script per job name, recording what it was asked. */
function scripted(script: Record<string, Step[]>, options: { maxErrors?: number; maxAgeMs?: number } = {}) {
  const looks: string[] = [];
  const delays: { attempt: number; errors: number }[] = [];
  const gaveUp: { name: string; reason: GiveUpReason; error?: unknown; data: Data }[] = [];
  const spec: PollSpec<Data, number> = {
    label: 'test',
    async look(data) {
      looks.push(data.name);
      const step = script[data.name]?.shift();
      if (step === undefined) throw new Error(`script of ${data.name} ran out`);
      if (step instanceof Error) throw step;
      return step;
    },
    async seen(_data, value, next) {
      if (value < 0) return { done: `done-${-value}` };
      if (value === 0) return { next };
      return { next: { ...next, seen: [...(next.seen ?? []), value] } };
    },
    async fatal(_data, error) {
      return error instanceof NotFoundError ? 'gone' : undefined;
    },
    async giveUp(data, reason, error) {
      gaveUp.push({ name: data.name, reason, error, data });
      return reason;
    },
    delayMs(state) {
      delays.push(state);
      return 5;
    },
    maxErrors: options.maxErrors ?? 3,
    maxAgeMs: options.maxAgeMs ?? 60_000,
    logger: silentLogger,
  };
  return { spec, looks, delays, gaveUp };
}

function startWorker(
  spec: PollSpec<Data, number>,
  connection: Redis = redis.duplicate(),
  options: { lockDuration?: number; concurrency?: number } = {},
): Worker {
  const worker = new Worker('poll-test', createPollProcessor(spec), { connection, prefix, ...options });
  letFollowsGo(worker);
  workers.push(worker);
  return worker;
}

async function follow(name: string, data: Partial<Data> = {}) {
  return queue.add(name, { name, startedAt: Date.now(), errors: 0, ...data }, { jobId: name });
}

async function result(name: string): Promise<{ state: string; value: unknown; data: Data }> {
  return waitFor(async () => {
    const state = await queue.getJobState(name);
    if (state !== 'completed' && state !== 'failed') return undefined;
    // Read the job only once it has ended: a copy read before could be an earlier look's, without
    // the return value (a busy machine made that window wide enough to hit).
    const job = await queue.getJob(name);
    return { state, value: job?.returnvalue, data: job?.data as Data };
  }, 20_000);
}

describe('a polled job', () => {
  it('looks until the resource is over, keeping its data between looks in the job', async () => {
    const { spec, looks, delays } = scripted({ a: [1, 2, 3, -7] });
    startWorker(spec);
    await follow('a');
    const done = await result('a');
    expect(done.state).toBe('completed');
    expect(done.value).toBe('done-7');
    expect(looks).toEqual(['a', 'a', 'a', 'a']);
    // The data stored after each look reaches the next look: what was seen, and the look count.
    expect(done.data.seen).toEqual([1, 2, 3]);
    expect(done.data.attempt).toBe(3);
    expect(delays).toEqual([
      { attempt: 0, errors: 0 },
      { attempt: 1, errors: 0 },
      { attempt: 2, errors: 0 },
    ]);
  });

  it('counts failed looks in a row (reset by a good one) and gives up after maxErrors', async () => {
    const down = () => new UnreachableError('test', 'down');
    const { spec, delays, gaveUp } = scripted({ b: [down(), down(), 1, down(), down(), down()] });
    startWorker(spec);
    await follow('b');
    const done = await result('b');
    expect(done.value).toBe('failing');
    expect(delays.map((d) => d.errors)).toEqual([1, 2, 0, 1, 2]);
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]?.reason).toBe('failing');
    expect(gaveUp[0]?.error).toBeInstanceOf(UnreachableError);
  });

  it('ends at once on a fatal failure, without counting it', async () => {
    const { spec, looks, gaveUp } = scripted({ c: [1, new NotFoundError('gone')] });
    startWorker(spec);
    await follow('c');
    expect((await result('c')).value).toBe('gone');
    expect(looks).toHaveLength(2);
    expect(gaveUp).toEqual([]);
  });

  it('gives up a follow older than maxAgeMs, with the data of its last look', async () => {
    const { spec, looks, gaveUp } = scripted({ d: [4] }, { maxAgeMs: 1000 });
    startWorker(spec);
    await follow('d', { startedAt: Date.now() - 5000 });
    expect((await result('d')).value).toBe('too-old');
    expect(looks).toEqual(['d']);
    expect(gaveUp[0]?.reason).toBe('too-old');
    expect(gaveUp[0]?.data.seen).toEqual([4]);
  });

  it('holds its job between looks: a look that changed nothing sends Redis nothing', async () => {
    const { spec, looks } = scripted({ q: [1, ...Array<number>(30).fill(0), -1] });
    const counted = countingConnection();
    startWorker(spec, counted.connection);
    await follow('q');
    await waitFor(() => looks.length >= 5);
    const before = counted.sent();
    await waitFor(() => looks.length >= 25);
    // Twenty looks that changed nothing: no write, no move back to `delayed`, no fetch.
    expect(counted.sent() - before).toBe(0);
    expect(await queue.getJobState('q')).toBe('active');
    const done = await result('q');
    expect(done.value).toBe('done-1');
    // The one look that changed something was written; the rest only counted.
    expect(done.data.seen).toEqual([1]);
  });

  it('is handed back when its worker closes, with its count of looks, and the next worker goes on', async () => {
    // The first worker makes two looks and waits a minute for the third; it closes meanwhile.
    const first = scripted({ f: [1, 2] });
    let looked = 0;
    const firstSpec: PollSpec<Data, number> = {
      ...first.spec,
      delayMs: () => (++looked >= 2 ? 60_000 : 5),
    };
    const worker = startWorker(firstSpec);
    await follow('f');
    await waitFor(() => looked >= 2);
    await worker.close();
    expect(await queue.getJobState('f')).toBe('delayed');
    // Nothing of the first worker's memory is left: the second only has what Redis kept.
    const second = scripted({ f: [3, -9] });
    startWorker(second.spec);
    await (await queue.getJob('f'))?.promote();
    const done = await result('f');
    expect(done.value).toBe('done-9');
    expect(first.looks).toEqual(['f', 'f']);
    expect(second.looks).toEqual(['f', 'f']);
    expect(done.data.seen).toEqual([1, 2, 3]);
    expect(second.delays).toEqual([{ attempt: 2, errors: 0 }]);
  });

  it(`looks at most ${LOOKS_IN_FLIGHT} at once; a follow waiting for its turn is handed back at close without a look`, async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let started = 0;
    const spec: PollSpec<Data, number> = {
      ...scripted({}).spec,
      label: 'turns-test',
      async look() {
        started += 1;
        await gate;
        return 0;
      },
    };
    const count = LOOKS_IN_FLIGHT + 10;
    const worker = startWorker(spec, redis.duplicate(), { concurrency: count });
    const names = Array.from({ length: count }, (_, i) => `t${i}`);
    for (const name of names) await follow(name);
    await waitFor(async () => (await queue.getActiveCount()) === count, 20_000);
    expect(started).toBe(LOOKS_IN_FLIGHT);
    const closing = worker.close();
    open();
    await closing;
    expect(started).toBe(LOOKS_IN_FLIGHT);
    const states = await Promise.all(names.map((name) => queue.getJobState(name)));
    expect(new Set(states)).toEqual(new Set(['delayed']));
    for (const name of names) await queue.remove(name);
  });

  it('stops following when its lock is lost (another worker has it by then)', async () => {
    const { spec, looks } = scripted({ l: Array<number>(400).fill(0) });
    const worker = startWorker(spec, redis.duplicate(), { lockDuration: 1000 });
    const failed = new Promise<string>((resolve) => worker.on('error', (error) => resolve(error.message)));
    await follow('l');
    await waitFor(() => looks.length >= 3);
    // As if the worker had been cut off from Redis past its lock: the lock is gone at the next renewal.
    await redis.del(`${prefix}:poll-test:l:lock`);
    await waitFor(async () => (await failed).length > 0, 10_000);
    const looksOfL = () => looks.filter((name) => name === 'l').length;
    const stoppedAt = looksOfL();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(looksOfL()).toBe(stoppedAt);
    expect(stoppedAt).toBeLessThan(400);
  });
});

/** A duplicate of the test connection that counts the commands it sends. */
function countingConnection(): { connection: Redis; sent(): number } {
  const connection = redis.duplicate();
  let sent = 0;
  const send = connection.sendCommand.bind(connection);
  connection.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    sent += 1;
    return send(...args);
  }) as Redis['sendCommand'];
  return { connection, sent: () => sent };
}
