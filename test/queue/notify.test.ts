import { describe, expect, it } from 'vitest';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import { settled, type TestApp } from '../support/app';
import { expectReplies } from '../support/replies';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

/** The watches ended and their announcements were delivered (not only decided). */
const idle = () => settled(t.app);
const postsTitled = (title: string) => t.transcript.posted.filter((card) => card.title === title);

describe('subscriptions and announcements', () => {
  it('manages subscriptions from chat', async () => {
    await expectReplies(t, [
      [
        '/subscribe demo builds --changes-only',
        'This conversation now hears about demo: builds (changes only)',
      ],
      ['/subscriptions', { fields: [{ label: 'demo', value: 'builds (changes only)' }] }],
      ['/subscribe demo --failures-only --changes-only', 'Choose either --failures-only or --changes-only'],
      ['/unsubscribe demo', 'no longer hears about demo'],
      ['/unsubscribe demo', 'not subscribed to demo'],
    ]);
  });

  it('announces a deployment started from chat once, besides its card', async () => {
    await t.say('/subscribe mytool deploys');
    await t.say('/deploy mytool');
    await idle();
    const posts = postsTitled('mytool: deployment successful');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.buttons?.map((b) => b.label)).toEqual(['Show']);
  });

  it('discovers and announces a deployment started directly on the platform', async () => {
    const before = postsTitled('mytool: deployment successful').length;
    const { deploy_id } = await platform
      .forTool('mytool')
      .components.createDeployment({ description: 'from CI' });
    await waitFor(() => postsTitled('mytool: deployment successful').length > before, 20_000);
    await idle();
    const posts = postsTitled('mytool: deployment successful');
    expect(posts).toHaveLength(before + 1);
    expect(posts.at(-1)?.footer).toBe(`deployment ${deploy_id}`);
  });

  it('--changes-only announces only a flip between failure and success', async () => {
    await t.say('/subscribe demo builds --changes-only');
    const run = async (source: string) => {
      const build = await platform.forTool('demo').builds.start({ source_url: source });
      const seen = `${t.app.services.config.REDIS_KEY_PREFIX}seen:build:demo`;
      await waitFor(async () => (await t.app.redis.redis.sismember(seen, build.name)) === 1, 20_000);
      await idle();
    };
    await run('https://example.org/fail-1.git');
    await run('https://example.org/fail-2.git');
    await run('https://example.org/good-1.git');
    await run('https://example.org/good-2.git');
    await run('https://example.org/fail-3.git');
    expect(postsTitled('demo: build error')).toHaveLength(1);
    expect(postsTitled('demo: build ok')).toHaveLength(1);
  });
});

describe('queue observability', () => {
  it('exposes queue depth, deliveries and failures in the metrics', async () => {
    const { metricsRegistry } = await import('../../src/metrics');
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(/deckhand_queue_jobs\{queue="watch",state="delayed"\} \d+/);
    expect(text).toMatch(/deckhand_notification_deliveries_total\{platform="slack",outcome="sent"\} [1-9]/);
    expect(text).toMatch(/deckhand_queue_job_wait_seconds_count\{queue="watch"\} [1-9]/);
    expect(text).toContain('deckhand_queue_jobs_failed_total');
  });
});

describe('a conversation the bot was removed from', () => {
  it('is dropped once and its subscription marked broken, not retried forever', async () => {
    const { ConversationGoneError } = await import('../../src/core/errors');
    let attempts = 0;
    t.app.messengers.register('discord', {
      async post(conversationId) {
        attempts += 1;
        throw new ConversationGoneError(
          conversationId,
          'Missing Access (the bot was removed from the channel)',
        );
      },
      async update() {},
    });
    await t.app.services.subscriptions.put({
      conversationId: 'discord:G1:C9',
      platform: 'discord',
      tool: 'mytool',
      kinds: ['deploys'],
      failuresOnly: false,
      changesOnly: false,
      createdBy: 'discord:42',
    });
    await t.say('/deploy mytool');
    await waitFor(
      async () => (await t.app.services.subscriptions.get('discord:G1:C9', 'mytool'))?.broken,
      20_000,
    );
    await idle();
    expect(attempts).toBe(1);
    const subscription = await t.app.services.subscriptions.get('discord:G1:C9', 'mytool');
    expect(subscription?.broken).toContain('the bot was removed from the channel');
  });
});
