/**
 * A queued command's first reply: its posted-record (what a retry reads before posting again) is
 * started with the job, while the command runs, so no Redis round trip stands between the command's
 * card and its post (the command → first reply latency) — and the card is still posted exactly once
 * and recorded.
 */
import type { Job } from 'bullmq';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { MessageHandle } from '../../src/core/command';
import { CommandSurfaces, type QueuedSurface } from '../../src/core/command-job';
import type { CommandRunner } from '../../src/core/command-runner';
import type { FileResolvers } from '../../src/core/files';
import type { Card } from '../../src/core/reply';
import { createCommandProcessor } from '../../src/queue/command-processor';
import type { CommandJobData } from '../../src/queue/command-queue';
import { commandsQueueForTests } from '../support/commands-queue';
import { testPrefix } from '../support/redis';

const prefix = testPrefix();
const { redis, queue } = commandsQueueForTests(prefix);

const key = `slack:trigger:${prefix}first-reply`;
const recordKey = `${prefix}delivery:${key}#1`;

function jobOf(): Job<CommandJobData> {
  const data = {
    key,
    platform: 'slack',
    input: { kind: 'text', text: '/deploy mytool' },
    invocation: {
      user: { platform: 'slack', id: 'U1', name: 'ada', workspace: 'T1' },
      conversation: { platform: 'slack', workspace: 'T1', channel: 'C1' },
      conversationId: 'slack:T1:C1',
      isPrivate: false,
    },
    place: { channel: 'C1' },
    lane: 'slack:T1:C1|slack:T1:U1',
    laneHead: true,
  } as CommandJobData;
  return { id: 'cmd-first-reply', data, timestamp: Date.now() } as Job<CommandJobData>;
}

describe('the first reply of a queued command', () => {
  it('has its posted-record started before the command replies, and is posted once and recorded', async () => {
    const posted: Card[] = [];
    const handle: MessageHandle = { platform: 'slack', conversationId: 'slack:T1:C1', ref: { ts: '1.1' } };
    const surface: QueuedSurface = {
      async reply(card) {
        posted.push(card);
        return handle;
      },
      async update() {},
    };
    const surfaces = new CommandSurfaces();
    surfaces.register('slack', () => surface);
    let postingWhenReplying: string | null | undefined;
    const runner = {
      async run(_input: unknown, _invocation: unknown, replyTo: QueuedSurface) {
        // Read on the processor's own connection: a record started with the job is already there.
        postingWhenReplying = await redis.hget(recordKey, 'posting');
        await replyTo.reply({ title: 'Deploying mytool' } as Card);
      },
    } as unknown as CommandRunner<unknown>;
    const started = Date.now();
    const processor = createCommandProcessor({
      runner,
      surfaces,
      files: {} as FileResolvers,
      queue,
      redis,
      prefix,
      logger: pino({ level: 'silent' }),
    });

    await processor(jobOf(), 'token');

    expect(Number(postingWhenReplying)).toBeGreaterThanOrEqual(started);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.delivery).toEqual({ key: `${key}#1` });
    expect(JSON.parse((await redis.hget(recordKey, 'posted')) ?? 'null')).toEqual(handle);
    // Run again (its worker died after the post): the record says posted, nothing is posted twice.
    await processor(jobOf(), 'token');
    expect(posted).toHaveLength(1);
  });
});
