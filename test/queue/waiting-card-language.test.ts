/**
 * A queued command's "still waiting" card in the reply's language: a German conversation sees it in
 * German, the service's name too, and so its edit when the answer is private.
 */
import type { Job } from 'bullmq';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { currentCommandScope } from '../../src/core/command-deadline';
import { CommandSurfaces, type QueuedSurface } from '../../src/core/command-job';
import type { CommandRunner } from '../../src/core/command-runner';
import type { FileResolvers } from '../../src/core/files';
import type { Card } from '../../src/core/reply';
import { createCommandProcessor } from '../../src/queue/command-processor';
import type { CommandJobData } from '../../src/queue/command-queue';
import { serviceName } from '../../src/services/service-names';
import { RedisLanguageStore } from '../../src/store/languages';
import { commandsQueueForTests } from '../support/commands-queue';
import { testPrefix } from '../support/redis';

const prefix = testPrefix();
const { redis, queue } = commandsQueueForTests(prefix);

function jobOf(channel: string): Job<CommandJobData> {
  const data = {
    key: `slack:trigger:${prefix}waiting-${channel}`,
    platform: 'slack',
    input: { kind: 'text', text: '/events' },
    invocation: {
      user: { platform: 'slack', id: 'U1', name: 'ada', workspace: 'T1' },
      conversation: { platform: 'slack', workspace: 'T1', channel },
      conversationId: `slack:T1:${channel}`,
      isPrivate: false,
    },
    place: { channel },
    lane: `slack:T1:${channel}|slack:T1:U1`,
    laneHead: true,
  } as CommandJobData;
  return { id: `cmd-waiting-${channel}`, data, timestamp: Date.now() } as Job<CommandJobData>;
}

/** Runs a command that waits on the calendar past the waiting card's time, then answers privately. */
async function waitingCards(channel: string): Promise<{ posted: Card[]; edited: Card[] }> {
  const posted: Card[] = [];
  const edited: Card[] = [];
  const surface: QueuedSurface = {
    async reply(card) {
      posted.push(card);
      return { platform: 'slack', conversationId: `slack:T1:${channel}`, ref: { ts: `${posted.length}` } };
    },
    async update(_handle, card) {
      edited.push(card);
    },
  };
  const surfaces = new CommandSurfaces();
  surfaces.register('slack', () => surface);
  const runner = {
    async run(_input: unknown, _invocation: unknown, replyTo: QueuedSurface) {
      const done = currentCommandScope()?.waiting((say) => serviceName('calendar', say));
      await new Promise((resolve) => setTimeout(resolve, 600));
      done?.();
      await replyTo.reply({ text: 'only for you', visibility: 'private' } as Card);
    },
  } as unknown as CommandRunner<unknown>;
  const processor = createCommandProcessor({
    runner,
    surfaces,
    files: {} as FileResolvers,
    queue,
    redis,
    prefix,
    logger: pino({ level: 'silent' }),
    deadlineMs: 400,
  });
  await processor(jobOf(channel), 'token');
  return { posted, edited };
}

describe('the "still waiting" card of a queued command', () => {
  it("is written in the conversation's language, the service's name too, and so is its edit", async () => {
    await new RedisLanguageStore(redis, prefix).setConversation('slack:T1:CDE', 'de');
    const german = await waitingCards('CDE');
    expect(german.posted[0]?.text).toBe('Warte noch: der Kalender hat noch nicht geantwortet…');
    expect(german.posted[0]?.locale).toBe('de');
    expect(german.edited[0]?.text).toBe('Die Antwort wurde nur der Person angezeigt, die gefragt hat.');

    const english = await waitingCards('CEN');
    expect(english.posted[0]?.text).toBe('Still waiting for the calendar…');
    expect(english.edited[0]?.text).toBe('The answer was shown only to the person who asked.');
  });
});
