import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { AccessPolicy } from '../../src/core/access';
import { CardPublisher } from '../../src/core/card-publisher';
import type { CardSurface } from '../../src/core/card-surface';
import type { AnyCommand, Invocation, MessageHandle } from '../../src/core/command';
import { CommandRunner } from '../../src/core/command-runner';
import { Messengers } from '../../src/core/messenger';
import type { Card } from '../../src/core/reply';
import { silentLogger } from '../../src/log';
import { RedisActionStore } from '../../src/store/actions';
import { RedisBindingStore } from '../../src/store/bindings';
import { testPrefix, useTestRedis } from '../support/redis';
import { explodingCommand } from '../support/test-commands';
import { sampleRegistry } from './fixtures';

let redis: Redis;
const prefix = testPrefix();

useTestRedis((opened) => {
  redis = opened;
});

function recordingSurface() {
  const cards: Card[] = [];
  const surface: CardSurface = {
    async reply(card) {
      cards.push(card);
      return {
        platform: 'shell',
        conversationId: 'shell:local:terminal',
        ref: { message: String(cards.length) },
      } as MessageHandle;
    },
    async update(_handle, card) {
      cards.push(card);
    },
  };
  return { cards, surface };
}

function invocation(userId: string): Invocation {
  return {
    user: { platform: 'slack', id: userId, name: userId, workspace: 'T1' },
    conversation: { platform: 'slack', workspace: 'T1', channel: 'C1' },
    conversationId: 'slack:T1:C1',
    isPrivate: false,
  };
}

function setup(extra: AnyCommand[] = []) {
  const { registry, ran } = sampleRegistry();
  for (const command of extra) registry.add(command);
  const actions = new RedisActionStore(redis, prefix);
  const publisher = new CardPublisher({ actions, messengers: new Messengers(), logger: silentLogger });
  const runner = new CommandRunner<unknown>({
    registry,
    services: {},
    actions,
    bindings: new RedisBindingStore(redis, prefix),
    policy: new AccessPolicy({ admins: ['slack:UADMIN'], maintainers: ['mytool=slack:UMAINT'] }),
    publisher,
    logger: silentLogger,
  });
  return { runner, publisher, ran, actions };
}

describe('command runner', () => {
  let env: ReturnType<typeof setup>;
  beforeEach(() => {
    env = setup();
  });

  it('runs a text command for a maintainer and posts its reply', async () => {
    const { cards, surface } = recordingSurface();
    await env.runner.handleText('/deploy mytool --force-run', invocation('UMAINT'), surface);
    expect(env.ran).toEqual([
      { name: 'deploy', args: { tool: 'mytool', forceBuild: false, forceRun: true } },
    ]);
    expect(cards[0]?.text).toBe('deploy ran');
  });

  it('refuses a write command to a stranger, saying what role is missing, and runs nothing', async () => {
    const { cards, surface } = recordingSurface();
    await env.runner.handleText('/deploy mytool', invocation('USTRANGER'), surface);
    expect(env.ran).toEqual([]);
    expect(cards[0]?.text).toContain('Only maintainers of mytool');
    expect(cards[0]?.text).toContain('TOOL_MAINTAINERS');
    expect(cards[0]?.visibility).toBe('private');
  });

  it('answers a malformed command with the usage line and changes nothing', async () => {
    const { cards, surface } = recordingSurface();
    await env.runner.handleText('/build start mytool ftp:/nope', invocation('UADMIN'), surface);
    expect(env.ran).toEqual([]);
    expect(cards[0]?.text).toMatch(/Invalid <source_url>/);
    expect(cards[0]?.text).toContain('Usage: /build start <tool> <source_url>');
  });

  it('asks for confirmation before a destructive command; Confirm runs it once', async () => {
    const { cards, surface } = recordingSurface();
    await env.runner.handleText('/build delete mytool b-1', invocation('UADMIN'), surface);
    expect(env.ran).toEqual([]);
    const confirm = cards[0];
    expect(confirm?.text).toBe('Delete build b-1 of mytool?');
    expect(confirm?.buttons?.map((b) => b.label)).toEqual(['Confirm', 'Cancel']);
    const confirmId = confirm?.buttons?.[0]?.actionId as string;
    expect(confirmId.length).toBeLessThanOrEqual(16);

    await env.runner.handleAction(confirmId, invocation('UADMIN'), surface);
    expect(env.ran).toEqual([{ name: 'build delete', args: { tool: 'mytool', id: 'b-1' } }]);

    await env.runner.handleAction(confirmId, invocation('UADMIN'), surface);
    expect(env.ran).toHaveLength(1);
    expect(cards.at(-1)?.text).toContain('This button has expired');
  });

  it('Cancel on a confirmation changes nothing', async () => {
    const { cards, surface } = recordingSurface();
    await env.runner.handleText('/build delete mytool b-1', invocation('UADMIN'), surface);
    const cancelId = cards[0]?.buttons?.[1]?.actionId as string;
    await env.runner.handleAction(cancelId, invocation('UADMIN'), surface);
    expect(env.ran).toEqual([]);
    expect(cards.at(-1)?.text).toContain('Cancelled');
  });

  it('checks the rights of the person who clicks, not of the one who asked', async () => {
    const { cards, surface } = recordingSurface();
    await env.runner.handleText('/build delete mytool b-1', invocation('UADMIN'), surface);
    const confirmId = cards[0]?.buttons?.[0]?.actionId as string;
    await env.runner.handleAction(confirmId, invocation('USTRANGER'), surface);
    expect(env.ran).toEqual([]);
    expect(cards.at(-1)?.text).toContain('Only maintainers of mytool');
  });

  it('refuses an expired or unknown button', async () => {
    const { cards, surface } = recordingSurface();
    const id = await env.actions.save({
      command: 'deploy',
      args: { tool: 'mytool' },
      conversationId: 'slack:T1:C1',
      expiresAt: Date.now() - 1,
    });
    await env.runner.handleAction(id, invocation('UADMIN'), surface);
    await env.runner.handleAction('doesnotexist', invocation('UADMIN'), surface);
    expect(env.ran).toEqual([]);
    expect(cards.map((c) => c.text)).toEqual([
      expect.stringContaining('This button has expired'),
      expect.stringContaining('This button has expired'),
    ]);
  });

  it('reports our own bugs with a reference id and no stack trace', async () => {
    const broken = setup([explodingCommand('cannot read properties of undefined (secret internals)')]);
    const { cards, surface } = recordingSurface();
    await broken.runner.handleText('/explode', invocation('UADMIN'), surface);
    expect(cards[0]?.text).toMatch(/Something went wrong on our side \(reference [0-9A-Z]{8}\)/);
    expect(cards[0]?.text).not.toContain('internals');
    expect(cards[0]?.text).not.toContain('at ');
  });

  it('stores button meanings in Redis with an expiry', async () => {
    const card = await env.publisher.render(
      { text: 'x', actions: [{ label: 'Go', command: 'deploy', args: { tool: 'mytool' }, ttlSeconds: 60 }] },
      'slack:T1:C1',
    );
    const id = card.buttons?.[0]?.actionId as string;
    const ttl = await redis.pttl(`${prefix}action:${id}`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

describe('confirmation buttons', () => {
  it('Cancel voids Confirm, and Cancel after Confirm says it was already answered', async () => {
    const env = setup();
    const { cards, surface } = recordingSurface();
    await env.runner.handleText('/build delete mytool b-1', invocation('UADMIN'), surface);
    const [confirmId, cancelId] = (cards[0]?.buttons ?? []).map((b) => b.actionId) as [string, string];
    await env.runner.handleAction(cancelId, invocation('UADMIN'), surface);
    await env.runner.handleAction(confirmId, invocation('UADMIN'), surface);
    expect(env.ran).toEqual([]);
    expect(cards[2]?.text).toContain('This button has expired');

    await env.runner.handleText('/build delete mytool b-2', invocation('UADMIN'), surface);
    const [confirm2, cancel2] = (cards[3]?.buttons ?? []).map((b) => b.actionId) as [string, string];
    await env.runner.handleAction(confirm2, invocation('UADMIN'), surface);
    await env.runner.handleAction(cancel2, invocation('UADMIN'), surface);
    expect(env.ran).toEqual([{ name: 'build delete', args: { tool: 'mytool', id: 'b-2' } }]);
    expect(cards.at(-1)?.text).toBe('This was already confirmed or cancelled.');
  });
});
