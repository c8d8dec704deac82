import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentInvocationId, runWithInvocation } from '../../src/log';
import { INVOCATION_FIELD, InvocationQueue, inJobInvocation } from '../../src/queue/job-context';
import { testPrefix, testRedis } from '../support/redis';
import { waitFor } from '../support/wait';

let redis: Redis;
const prefix = testPrefix().replace(/:$/, '');
let queue: InvocationQueue;
let worker: Worker;
let workerConnection: Redis;
/** Each job's name and the invocation its processor ran under, in the order they ran. */
const ran: { name: string; invocation: string | undefined }[] = [];

beforeAll(() => {
  redis = testRedis();
  queue = new InvocationQueue('context-test', { connection: redis, prefix });
  workerConnection = redis.duplicate({ maxRetriesPerRequest: null });
  worker = new Worker(
    'context-test',
    inJobInvocation(async (job: Job) => {
      // A job the processor enqueues in turn carries the same id.
      if (job.name === 'parent') await queue.add('child', {});
      await Promise.resolve();
      ran.push({ name: job.name, invocation: currentInvocationId() });
    }),
    { connection: workerConnection, prefix },
  );
});
afterAll(async () => {
  await worker.close();
  workerConnection.disconnect();
  await queue.obliterate({ force: true });
  await queue.close();
  await redis.quit();
});

describe('the invocation id across the queue', () => {
  it('is stamped into the data of jobs added (one by one or in bulk) while an invocation runs', async () => {
    const [one, bulk] = await runWithInvocation('STAMPED1', async () => [
      await queue.add('stamped', { tool: 'mytool' }),
      await queue.addBulk([{ name: 'stamped-bulk', data: { tool: 'mytool' } }]),
    ]);
    expect(one.data).toEqual({ tool: 'mytool', [INVOCATION_FIELD]: 'STAMPED1' });
    expect(bulk[0]?.data).toEqual({ tool: 'mytool', [INVOCATION_FIELD]: 'STAMPED1' });
    // Outside any invocation, the data is left as given.
    const plain = await queue.add('plain', { tool: 'mytool' });
    expect(plain.data).toEqual({ tool: 'mytool' });
    await waitFor(() => ran.length >= 3 || undefined);
    expect(ran.find((r) => r.name === 'stamped')?.invocation).toBe('STAMPED1');
    expect(ran.find((r) => r.name === 'stamped-bulk')?.invocation).toBe('STAMPED1');
    expect(ran.find((r) => r.name === 'plain')?.invocation).toBeUndefined();
  });

  it('is restored in the processor, and carried on to the jobs it enqueues', async () => {
    await runWithInvocation('PARENT01', () => queue.add('parent', {}));
    await waitFor(() => ran.find((r) => r.name === 'child'));
    expect(ran.find((r) => r.name === 'parent')?.invocation).toBe('PARENT01');
    expect(ran.find((r) => r.name === 'child')?.invocation).toBe('PARENT01');
  });
});
