import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { AccessPolicy } from '../../src/core/access';
import { CardPublisher } from '../../src/core/card-publisher';
import type { CardSurface } from '../../src/core/card-surface';
import { CommandRunner } from '../../src/core/command-runner';
import { Messengers } from '../../src/core/messenger';
import { CommandRegistry } from '../../src/core/registry';
import type { Card } from '../../src/core/reply';
import { createLogger, currentInvocationId, flushLogs, runWithInvocation } from '../../src/log';
import { commandDuration } from '../../src/metrics';
import { RedisActionStore } from '../../src/store/actions';
import { RedisBindingStore } from '../../src/store/bindings';
import { invocationAt } from '../support/invocation';
import { histogramCount } from '../support/metric-values';
import { testPrefix, useTestRedis } from '../support/redis';
import { explodingCommand, testCommand } from '../support/test-commands';

let redis: Redis;
const prefix = testPrefix();
const logFile = join(mkdtempSync(join(tmpdir(), 'deckhand-dispatch-obs-')), 'deckhand.log');
const logger = createLogger({ level: 'debug', file: logFile });
/** The invocation id each run of `seen` saw (the command's own view of its context). */
const seen: (string | undefined)[] = [];

useTestRedis((opened) => {
  redis = opened;
});

const commands = [
  testCommand({
    name: 'look',
    summary: 'notes its invocation',
    async run() {
      seen.push(currentInvocationId());
      return { text: 'looked' };
    },
  }),
  explodingCommand('broken internals'),
];

function runner(): CommandRunner<unknown> {
  const actions = new RedisActionStore(redis, prefix);
  return new CommandRunner<unknown>({
    registry: new CommandRegistry<unknown>(commands as never),
    services: {},
    actions,
    bindings: new RedisBindingStore(redis, prefix),
    policy: new AccessPolicy({ admins: ['slack:UADMIN'], maintainers: [] }),
    publisher: new CardPublisher({ actions, messengers: new Messengers(), logger }),
    logger,
  });
}

const invocation = invocationAt({ platform: 'slack', workspace: 'T1', channel: 'C1' }, 'UADMIN', 'ada');

function surface(cards: Card[]): CardSurface {
  return {
    async reply(card) {
      cards.push(card);
      return undefined;
    },
    async update() {},
  };
}

async function logLines(): Promise<Record<string, unknown>[]> {
  await flushLogs();
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('each dispatch is one invocation', () => {
  it('runs the command under a fresh id, a new one per dispatch, logged on its command line', async () => {
    const d = runner();
    await d.handleText('/look', invocation, surface([]));
    await d.handleText('/look', invocation, surface([]));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatch(/^[0-9A-Z]{8}$/);
    expect(seen[1]).toMatch(/^[0-9A-Z]{8}$/);
    expect(seen[1]).not.toBe(seen[0]);
    const logged = (await logLines()).filter((line) => line.msg === 'command' && line.command === 'look');
    expect(logged.map((line) => line.invocation)).toEqual(seen);
  });

  it('keeps the invocation already running (a queue worker that restored it from the job)', async () => {
    await runWithInvocation('RESTORED', () => runner().handleText('/look', invocation, surface([])));
    expect(seen.at(-1)).toBe('RESTORED');
  });

  it("shows the invocation id as an internal error's reference, the id its log line carries", async () => {
    const cards: Card[] = [];
    await runner().handleText('/explode', invocation, surface(cards));
    const reference = /\(reference ([0-9A-Z]{8})\)/.exec(cards[0]?.text ?? '')?.[1];
    expect(reference).toBeDefined();
    const failed = (await logLines()).filter((line) => line.msg === 'command failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.invocation).toBe(reference);
    expect(failed[0]?.reference).toBe(reference);
  });

  it('observes its duration by command and outcome', async () => {
    const before = {
      ok: await histogramCount(commandDuration, { command: 'look', outcome: 'ok' }),
      internal: await histogramCount(commandDuration, { command: 'explode', outcome: 'internal' }),
      usage: await histogramCount(commandDuration, { command: 'unknown', outcome: 'usage' }),
    };
    const d = runner();
    await d.handleText('/look', invocation, surface([]));
    await d.handleText('/explode', invocation, surface([]));
    await d.handleStructured('no-such-command', {}, invocation, surface([]));
    expect(await histogramCount(commandDuration, { command: 'look', outcome: 'ok' })).toBe(before.ok + 1);
    expect(await histogramCount(commandDuration, { command: 'explode', outcome: 'internal' })).toBe(
      before.internal + 1,
    );
    // A name nobody registered is labelled `unknown` (labels stay bounded).
    expect(await histogramCount(commandDuration, { command: 'unknown', outcome: 'usage' })).toBe(
      before.usage + 1,
    );
  });

  it('tags nothing outside an invocation (the tag comes from the context, not the logger)', async () => {
    logger.info('outside any command');
    const outside = (await logLines()).find((line) => line.msg === 'outside any command');
    expect(outside).toBeDefined();
    expect(outside).not.toHaveProperty('invocation');
  });
});
