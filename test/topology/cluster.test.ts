/**
 * Deckhand on a Redis Cluster (3 masters + 3 replicas, `redis-cli --cluster create`): the queues
 * spread over the masters, every store that writes several keys at once works, slash commands run
 * through the queues, a watch runs to its end, and a master killed under 20 commands a second is
 * replaced by its replica with every command run once or refused.
 */
import { randomBytes } from 'node:crypto';
import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { jobsRuntimeOf } from '@deckhand/sandbox/toolhost/jobs-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCheck } from '../../src/cli/doctor/check';
import { redisChecks } from '../../src/cli/doctor/redis-checks';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { forgetDiscovered } from '../../src/queue/discover-processor';
import { bullPrefix, QUEUE_NAMES } from '../../src/queue/queues';
import { TailState, tailKey } from '../../src/queue/tail-state';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { KeyLayoutError, queuesUsable } from '../../src/store/key-layout';
import { ImportFollowers } from '../../src/store/links-imports';
import { PushAccessCache } from '../../src/store/links-permissions';
import { isCluster } from '../../src/store/redis-connect';
import { SecretIndex } from '../../src/store/secret-index';
import { SubscriptionStore } from '../../src/store/subscriptions';
import { createApp } from '../../src/wiring';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { startTestCluster, type TestCluster } from '../support/redis-topologies';
import { waitFor } from '../support/wait';
import { commandOutcomes } from './outcomes';

let cluster: TestCluster;
let slack: SlackBot;

beforeAll(async () => {
  cluster = await startTestCluster();
  slack = await startSlackBot({ env: { REDIS_URL: `redis+cluster://${cluster.nodes.join(',')}` } });
}, 120_000);

let closed = false;

afterAll(async () => {
  if (!closed) await slack?.close();
  await cluster?.stop();
}, 120_000);

const restarts = () =>
  jobsRuntimeOf((slack.app.emulators.toolhost as ToolhostSandbox).ctx).get('mytool', 'web')?.restarts ?? 0;

async function slotOf(key: string): Promise<number> {
  return Number(await slack.app.redis.redis.cluster('KEYSLOT', key));
}

/** Sends `/jobs restart mytool web` in a channel of its own every 50 ms; `during(i)` runs before each. */
async function load(tag: string, total: number, during: (i: number) => void = () => undefined) {
  const sent: { channel: string; responseId: string; at: number }[] = [];
  for (let i = 0; i < total; i++) {
    during(i);
    const channel = `C0${tag}${i}`;
    const fields = slack.driver.commandFields(USERS.admin, channel, '/jobs restart mytool web');
    sent.push({
      channel,
      responseId: (fields.response_url as string).split('/response/')[1] as string,
      at: Date.now(),
    });
    void slack.driver.sendCommand(fields).catch(() => undefined);
    await new Promise((resume) => setTimeout(resume, 50));
  }
  return sent;
}

describe('Deckhand on a Redis Cluster', () => {
  it('spreads the queues over the masters', async () => {
    expect(isCluster(slack.app.redis.redis)).toBe(true);
    const prefix = slack.config.REDIS_KEY_PREFIX;
    const masters = new Set<number>();
    for (const queue of QUEUE_NAMES)
      masters.add(await cluster.masterOf(await slotOf(`${bullPrefix(prefix, queue)}:${queue}:wait`)));
    expect(masters.size).toBeGreaterThan(1);
  });

  it('refuses to start on one node of the cluster given as a single Redis, with one line', async () => {
    const config = loadConfig({ REDIS_URL: `redis://${cluster.nodes[0]}`, REDIS_KEY_PREFIX: 'dhone:' });
    const started = createApp({ config, logger: silentLogger, sandbox: true });
    await expect(started).rejects.toThrow(KeyLayoutError);
    await expect(started).rejects.toThrow(
      /^the Redis at REDIS_URL is one node of a Redis Cluster: give the whole cluster \(REDIS_URL=redis\+cluster:\/\/HOST:PORT,HOST:PORT or REDIS_CLUSTER_NODES; docs\/redis\.md\)\.$/,
    );
  });

  it('is ready: the queues answer a command over several of their keys', async () => {
    expect(await queuesUsable(slack.app.queues, slack.config.REDIS_KEY_PREFIX)).toBe(true);
  });

  it('doctor reports the masters, replicas and slots, and that the keys fit', async () => {
    const lines = (await redisChecks(loadConfig({ REDIS_URL: `redis+cluster://${cluster.nodes[0]}` }))).map(
      renderCheck,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^✓ Redis topology: Redis Cluster: 3 master\(s\) \(.*\), 3 replica\(s\), 16384\/16384 slots covered, state ok\.$/,
      ),
    );
    expect(lines).toContain('✓ Redis eviction: maxmemory-policy noeviction.');
    expect(lines).toContainEqual(
      expect.stringMatching(/^✗ Redis persistence: the append-only file is off on 127\.0\.0\.1:\d+, /),
    );
    expect(lines).toContain('✓ Redis keys: the keys under "dh:" fit this topology.');
  });

  it('runs every store that writes several keys at once', async () => {
    const redis = slack.app.redis.redis;
    const prefix = `${slack.config.REDIS_KEY_PREFIX}s${randomBytes(3).toString('hex')}:`;
    const subscriptions = new SubscriptionStore(redis, prefix);
    const sub = {
      conversationId: 'slack:T1:C0SUB',
      platform: 'slack' as const,
      tool: 'mytool',
      kinds: ['deploys' as const],
      failuresOnly: false,
      changesOnly: false,
      createdBy: 'slack:UADMIN',
    };
    await subscriptions.put(sub);
    expect(await subscriptions.forTool('mytool')).toEqual([sub]);
    expect(await subscriptions.forConversation('slack:T1:C0SUB')).toEqual([sub]);
    expect(await subscriptions.tools()).toEqual(['mytool']);
    await subscriptions.remove('slack:T1:C0SUB', 'mytool');
    expect(await subscriptions.forTool('mytool')).toEqual([]);
    expect(await subscriptions.tools()).toEqual([]);

    const imports = new ImportFollowers(redis, prefix);
    await imports.follow('Owner/Repo', 'slack:T1:C0IMP');
    expect(await imports.forRepo('owner/repo')).toEqual(['slack:T1:C0IMP']);
    expect(await imports.unfollow('owner/repo', 'slack:T1:C0IMP')).toBe(true);
    expect(await imports.forConversation('slack:T1:C0IMP')).toEqual([]);

    const tail = new TailState(redis, tailKey(prefix, 'tail-job-1'));
    await tail.append(['one', 'two'], { lines: 2 });
    await tail.requestStop();
    expect(await tail.transcript()).toEqual(['one', 'two']);
    expect(await tail.cursor()).toEqual({ lines: 2 });
    await tail.clear();
    expect(await tail.transcript()).toEqual([]);
    expect(await tail.stopRequested()).toBe(false);

    const secret = 'e3b0c442-98fc-1c14-9afb-f4c8996fb924';
    const index = new SecretIndex(redis, { key: randomBytes(32), prefix });
    await index.register(secret);
    await index.register('Sbx4 Cal7 Evt2 Pwd9', { tool: 'mytool' });
    expect(await index.scrubTexts([`token ${secret} here`])).toEqual(['token [redacted] here']);

    const cache = new PushAccessCache<boolean>(redis, prefix, 60);
    const owner = { platform: 'slack', workspace: 'T1', id: 'U1' };
    await cache.set(owner, 'mytool', true);
    await cache.set(owner, 'other', false);
    expect(await cache.get(owner, 'mytool')).toBe(true);
    await cache.clear(owner);
    expect(await cache.get(owner, 'mytool')).toBeUndefined();
    expect(await cache.get(owner, 'other')).toBeUndefined();

    await forgetDiscovered(redis, prefix, 'mytool', ['builds', 'deploys', 'jobs']);
  });

  it('runs slash commands through the queues (a burst in one lane too) and a watch to its end', async () => {
    const before = restarts();
    const sent = await load('CL', 10);
    // A burst from one person in one conversation: several lanes entries joined in one script.
    const burst = Array.from({ length: 4 }, () =>
      slack.driver.command(USERS.admin, 'C0BURST', '/jobs restart mytool web'),
    );
    await Promise.all(burst);
    const outcomes = await waitFor(() => {
      const found = commandOutcomes(slack, sent);
      return found.every((o) => o.ranCard) ? found : undefined;
    }, 60_000);
    expect(outcomes.filter((o) => o.refused)).toEqual([]);
    await waitFor(() => restarts() === before + 14, 60_000);

    const platform = ToolhostClientFactory.forSandbox(slack.app.emulators.toolhost as ToolhostSandbox);
    try {
      const build = await platform
        .forTool('mytool')
        .builds.start({ source_url: 'https://example.org/stuck-cluster.git' });
      const handle = {
        platform: 'slack' as const,
        conversationId: 'slack:T1:C0WATCH',
        ref: { ts: '1.1', channel: 'C0WATCH' },
      };
      await slack.app.services.watches.start({ kind: 'build', tool: 'mytool', id: build.name, handle });
      await waitFor(async () => (await slack.app.services.watches.activeCount()) > 0, 30_000);
      await platform.forTool('mytool').builds.cancel(build.name);
      await waitFor(async () => (await slack.app.services.watches.activeCount()) === 0, 60_000, 200);
    } finally {
      await platform.close();
    }
  }, 180_000);

  it('survives a master failover inside the cluster: every command run once or refused, later ones run', async () => {
    const prefix = slack.config.REDIS_KEY_PREFIX;
    const victim = await cluster.masterOf(await slotOf(`${bullPrefix(prefix, 'commands')}:commands:wait`));
    const before = restarts();
    const slot = await slotOf(`${bullPrefix(prefix, 'commands')}:x`);
    let killedAt = 0;
    let promotedAt = 0;
    let followedAt = 0;
    const sent = await load('CF', 240, (i) => {
      if (i !== 40) return;
      killedAt = Date.now();
      void cluster.processes.find((p) => p.port === victim)?.kill('SIGKILL');
      void (async () => {
        while (!followedAt) {
          try {
            // The cluster promoted the replica, then Deckhand's request path reached it.
            if (!promotedAt && (await cluster.masterOf(slot)) !== victim) promotedAt = Date.now();
            await slack.app.redis.requests.set(`${bullPrefix(prefix, 'commands')}:probe`, '1');
            if (promotedAt) followedAt = Date.now();
          } catch {
            // not yet
          }
          await new Promise((resume) => setTimeout(resume, 50));
        }
      })();
    });
    const outcomes = await waitFor(
      () => {
        const found = commandOutcomes(slack, sent);
        return found.every((o) => o.answered) ? found : undefined;
      },
      120_000,
      200,
    );
    await slack.settled();
    await new Promise((resume) => setTimeout(resume, 5000));
    const refused = outcomes.filter((o) => o.refused).length;
    const ran = restarts() - before;
    const since = (at: number) => (at ? `${at - killedAt} ms` : 'never');
    console.log(
      `cluster failover: promoted ${since(promotedAt)}, followed ${since(followedAt)} after the kill; ${sent.length} commands, ${ran} ran, ${refused} refused, ${outcomes.filter((o) => o.notSent).length} not sent`,
    );
    expect(promotedAt).toBeGreaterThan(0);
    expect(followedAt).toBeGreaterThan(0);
    expect(ran).toBe(sent.length - refused - outcomes.filter((o) => o.notSent).length);
    expect(outcomes.every((o) => !(o.refused && o.ranCard))).toBe(true);
    const afterFollow = outcomes.filter((o) => o.at > followedAt + 500);
    expect(afterFollow.length).toBeGreaterThan(0);
    expect(afterFollow.filter((o) => o.refused)).toEqual([]);
  }, 240_000);

  it('shuts down when a master is lost with no replica left, with commands on its slots in flight', async () => {
    // The promoted replica has no replica of its own: killing it loses the commands queue's slots
    // for good, so the jobs running there can neither finish nor fail. Close must still end.
    const prefix = slack.config.REDIS_KEY_PREFIX;
    const master = await cluster.masterOf(await slotOf(`${bullPrefix(prefix, 'commands')}:commands:wait`));
    await load('CL0', 5);
    await cluster.processes.find((p) => p.port === master)?.kill('SIGKILL');
    await load('CL1', 20);
    await slack.close();
    closed = true;
  }, 60_000);
});
