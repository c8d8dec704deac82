import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from '../fakes/slack';
import { SIGNING_SECRET, type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { waitFor } from '../support/wait';

let fake: FakeSlack;
let bot: SlackBot;

beforeAll(async () => {
  fake = await FakeSlack.start();
  bot = await startSlackBot({
    fake,
    env: {
      SLACK_BOT_TOKEN: '',
      SLACK_CLIENT_ID: fake.oauthApp.clientId,
      SLACK_CLIENT_SECRET: fake.oauthApp.clientSecret,
      SLACK_STATE_SECRET: 'state-secret-0123456789abcdef',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SECRET_KEY: 'a'.repeat(64),
    },
  });
});
afterAll(async () => {
  await bot?.close();
  await fake?.close();
});
afterEach(() => {
  expect(fake.violations).toEqual([]);
});

const base = () => bot.eventsUrl.replace('/slack/events', '');

describe('Slack multi-workspace installs (OAuth)', () => {
  it('installs through /slack/install, keeps the token encrypted in Redis and answers with it', async () => {
    const install = await fetch(`${base()}/slack/install`, { redirect: 'manual' });
    expect(install.status).toBe(302);
    const location = new URL(install.headers.get('location') ?? '');
    expect(location.searchParams.get('client_id')).toBe(fake.oauthApp.clientId);
    expect(location.searchParams.get('scope')).toContain('commands');
    const state = location.searchParams.get('state') ?? '';
    const cookie = (install.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

    const { code, token } = fake.approveInstall('T0SECOND');
    const callback = await fetch(`${base()}/slack/oauth_redirect?code=${code}&state=${state}`, {
      headers: { cookie },
      redirect: 'manual',
    });
    expect(callback.status).toBe(200);
    const keys = await bot.app.redis.redis.keys(`${bot.config.REDIS_KEY_PREFIX}slack:installation:*`);
    expect(keys).toEqual([`${bot.config.REDIS_KEY_PREFIX}slack:installation:T:T0SECOND`]);
    expect((await bot.app.redis.redis.get(keys[0] as string)) ?? '').not.toContain(token);

    const fields = { ...bot.driver.commandFields(USERS.maintainer, 'C0TEAM2', '/help'), team_id: 'T0SECOND' };
    expect((await bot.driver.sendCommand(fields)).status).toBe(200);
    const answer = await waitFor(() =>
      fake.calls.find((c) => c.method.startsWith('chat.') && c.form.channel === 'C0TEAM2'),
    );
    expect(answer.token).toBe(token);
  });

  it('refuses a callback with a state it did not issue, and stores nothing', async () => {
    const { code } = fake.approveInstall('T0THIRD');
    const callback = await fetch(`${base()}/slack/oauth_redirect?code=${code}&state=forged`, {
      redirect: 'manual',
    });
    expect(callback.status).toBeGreaterThanOrEqual(400);
    expect(
      await bot.app.redis.redis.exists(`${bot.config.REDIS_KEY_PREFIX}slack:installation:T:T0THIRD`),
    ).toBe(0);
  });

  it('ignores a workspace it is not installed in', async () => {
    const fields = {
      ...bot.driver.commandFields(USERS.maintainer, 'C0STRANGE', '/help'),
      team_id: 'T0UNKNOWN',
    };
    await bot.driver.sendCommand(fields);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await bot.settled();
    expect(fake.calls.filter((c) => c.form.channel === 'C0STRANGE')).toEqual([]);
  });
});
