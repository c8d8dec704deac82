/**
 * `/subscribe` announces only what happens after it, even when discovery remembers an earlier
 * subscription or sandbox run on the same Redis; `/subscriptions` lists everything the conversation
 * hears about: tools, the calendar digest and followed source imports.
 */

import { describe, expect, it } from 'vitest';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import { settled, type TestApp } from '../support/app';
import { linkDirectly, slackUser } from '../support/oauth-web';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

const announced = () => t.transcript.posted.filter((card) => card.title === 'mytool: deployment successful');

describe('/subscribe', () => {
  it('does not announce the day-old deployment discovery finds first, then announces a new one', async () => {
    const redis = t.app.redis.redis;
    const seen = `${t.app.services.config.REDIS_KEY_PREFIX}seen:deployment:mytool`;
    // What discovery remembered of mytool from an earlier run whose sandbox had other ids.
    await redis.sadd(seen, '20200101-000000-earlierrun');
    const old = await platform.forTool('mytool').components.latestDeployment();
    expect(old.status).toBe('successful');

    const [card] = await t.say('/subscribe mytool deploys');
    expect(card?.text).toContain('This conversation now hears about mytool: deploys.');
    // Discovery has looked (the latest deployment is recorded), and everything it queued is done.
    await waitFor(async () => (await redis.sismember(seen, old.deploy_id)) === 1, 20_000);
    await settled(t.app);
    expect(announced()).toEqual([]);

    // A deployment started after subscribing is news.
    const { deploy_id } = await platform
      .forTool('mytool')
      .components.createDeployment({ description: 'from CI' });
    await waitFor(() => announced().length > 0, 20_000);
    expect(announced().map((c) => c.footer)).toEqual([`deployment ${deploy_id}`]);
  });
});

describe('/subscriptions', () => {
  it('lists tools, the calendar digest and followed source imports', async () => {
    await linkDirectly(t.app, slackUser('UADMIN'), 'mona', ['read:user', 'repo']);
    const [empty] = await t.say('/subscriptions', { private: true });
    expect(empty?.text).toContain('This conversation has no subscriptions.');
    await t.say('/calendar digest --daily --at 09:00');
    await t.say('/source import follow mona/legacy-svn', { user: 'UADMIN' });
    const [list] = await t.say('/subscriptions');
    // On Slack, command references read `/deckhand …` (the one Slack command).
    const plain = (list?.fields ?? []).map((f) => ({ ...f, value: f.value.replaceAll('/deckhand ', '/') }));
    expect(plain).toEqual([
      { label: 'mytool', value: 'deploys' },
      {
        label: 'calendar',
        value: 'daily digest of upcoming events at 09:00 (Europe/Berlin) — /calendar digest --off stops it',
      },
      {
        label: 'mona/legacy-svn',
        value: 'the end of its source import — /source import unfollow mona/legacy-svn stops it',
      },
    ]);
    await t.say('/source import unfollow mona/legacy-svn', { user: 'UADMIN' });
    const [after] = await t.say('/subscriptions');
    expect(after?.fields?.map((f) => f.label)).toEqual(['mytool', 'calendar']);
  });
});
