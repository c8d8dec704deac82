/**
 * A burst of commands handed over in one turn of the event loop is queued together (so the
 * web process's acks do not wait behind a Redis round trip per command): one script for the
 * lanes and one `addBulk`, with every job queued and each lane in arrival order — and a failure
 * reaches every caller of the burst. A lone command is added without building a pipeline.
 */
import { Queue } from 'bullmq';
import { Pipeline } from 'ioredis';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { laneKey, laneOf } from '../../src/coordination/lanes';
import type { Invocation } from '../../src/core/command';
import { CommandHandoff } from '../../src/core/command-handoff';
import type { CommandJob } from '../../src/core/command-job';
import type { CommandRunner } from '../../src/core/command-runner';
import { currentInvocationId } from '../../src/log';
import { BullCommandQueue, commandJobId } from '../../src/queue/command-queue';
import { InvocationQueue, invocationOf } from '../../src/queue/job-context';
import { bullPrefix } from '../../src/queue/queues';
import { countCalls } from '../support/call-count';
import { commandsQueueForTests } from '../support/commands-queue';
import { testPrefix } from '../support/redis';

const prefix = testPrefix();
const { redis, queue } = commandsQueueForTests(prefix);

function job(user: string, n: number): CommandJob {
  return {
    key: `slack:trigger:${prefix}${user}-${n}`,
    platform: 'slack',
    input: { kind: 'text', text: `/deploy mytool ${n}` },
    invocation: {
      user: { platform: 'slack', id: user, name: user, workspace: 'T1' },
      conversation: { platform: 'slack', workspace: 'T1', channel: 'C1' },
      conversationId: 'slack:T1:C1',
      isPrivate: false,
    },
    place: { channel: 'C1' },
  } as CommandJob;
}

describe('command queue bursts', () => {
  it('queues a burst with one lane script and one addBulk, every job present and each lane in order', async () => {
    const { counted, calls: scripts } = countCalls(redis, 'eval');
    const bulks = countCalls(queue, 'addBulk');
    const commands = new BullCommandQueue(bulks.counted, counted, prefix);
    const burst = [
      ...Array.from({ length: 12 }, (_, n) => job('UA', n)),
      ...[0, 1, 2].map((n) => job('UB', n)),
    ];
    await Promise.all(burst.map((j) => commands.enqueue(j)));
    expect(scripts()).toBe(1);
    expect(bulks.calls()).toBe(1);
    for (const j of burst) expect(await queue.getJob(commandJobId(j.key))).toBeDefined();
    const laneA = await redis.lrange(laneKey(prefix, laneOf(job('UA', 0))), 0, -1);
    expect(laneA).toEqual(burst.slice(0, 12).map((j) => commandJobId(j.key)));
    // Every lane expires a day after its last command.
    const ttl = await redis.ttl(laneKey(prefix, laneOf(job('UB', 0))));
    expect(ttl).toBeGreaterThan(24 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);
    // The first of each lane found it empty: it is the head, and says so; the ones behind it do not.
    const heads = await Promise.all(
      burst.map(async (j) => (await queue.getJob(commandJobId(j.key)))?.data.laneHead),
    );
    expect(heads).toEqual(burst.map((_, n) => (n === 0 || n === 12 ? true : undefined)));
    // A later command is a burst of its own.
    await commands.enqueue(job('UA', 99));
    expect(scripts()).toBe(2);
  });

  it('adds a lone command with `add`, no pipeline built, behind the others of its lane', async () => {
    // Every pipeline and MULTI of ioredis, BullMQ's included, ends in Pipeline#exec.
    const pipelines = vi.spyOn(Pipeline.prototype, 'exec');
    const bulks = countCalls(queue, 'addBulk');
    const commands = new BullCommandQueue(bulks.counted, redis, prefix);
    const first = job('UD', 1);
    await commands.enqueue(first);
    const second = job('UD', 2);
    await commands.enqueue(second);
    expect(bulks.calls()).toBe(0);
    expect(pipelines).not.toHaveBeenCalled();
    pipelines.mockRestore();
    expect((await queue.getJob(commandJobId(first.key)))?.data).toMatchObject({ laneHead: true });
    expect((await queue.getJob(commandJobId(second.key)))?.data.laneHead).toBeUndefined();
    const lane = await redis.lrange(laneKey(prefix, laneOf(first)), 0, -1);
    expect(lane).toEqual([first, second].map((j) => commandJobId(j.key)));
  });

  it('tells every caller of a burst when it could not be queued', async () => {
    const broken = new Queue('commands', { connection: redis, prefix: bullPrefix(prefix, 'commands') });
    broken.addBulk = () => Promise.reject(new Error('Redis went away'));
    const commands = new BullCommandQueue(broken, redis, prefix);
    const results = await Promise.allSettled([job('UC', 1), job('UC', 2)].map((j) => commands.enqueue(j)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    broken.add = () => Promise.reject(new Error('Redis went away'));
    await expect(commands.enqueue(job('UC', 3))).rejects.toThrow('Redis went away');
    await broken.close();
  });

  it('gives each command of a burst its own invocation id, in its job and without a log scope', async () => {
    const invocationQueue = new InvocationQueue('commands', {
      connection: redis,
      prefix: bullPrefix(prefix, 'commands'),
    });
    const scopes: (string | undefined)[] = [];
    const commands = new BullCommandQueue(invocationQueue, redis, prefix);
    const handoff = new CommandHandoff({
      runner: {} as CommandRunner<unknown>,
      queue: {
        enqueue: (queued) => {
          // The web process queues outside any log scope (no AsyncLocalStorage run: see submit()).
          scopes.push(currentInvocationId());
          return commands.enqueue(queued);
        },
      },
      logger: pino({ level: 'silent' }),
    });
    const burst = [job('UC', 0), job('UC', 1), job('UD', 0)];
    await Promise.all(
      burst.map((j) =>
        handoff.submit(
          {
            key: j.key,
            platform: 'slack',
            input: j.input,
            invocation: j.invocation as Invocation,
            place: j.place,
          },
          () => {
            throw new Error('a queued command has no surface here');
          },
        ),
      ),
    );
    expect(scopes).toEqual([undefined, undefined, undefined]);
    // Flushed together, each job still names its own command's id (the worker runs it under that id).
    const ids = await Promise.all(
      burst.map(async (j) => invocationOf(await queue.getJob(commandJobId(j.key)))),
    );
    for (const id of ids) expect(id).toMatch(/^[0-9A-Z]{8}$/);
    expect(new Set(ids).size).toBe(3);
    await invocationQueue.close();
  });
});
