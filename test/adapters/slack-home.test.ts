/**
 * The Slack App Home tab through Bolt and the fake: `app_home_opened` on the Home tab publishes the
 * person's `/me` view with `views.publish` (validated by the fake as Slack would); opening the
 * Messages tab publishes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../../src/core/approvals';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { waitFor } from '../support/wait';

let bot: SlackBot;

beforeAll(async () => {
  bot = await startSlackBot();
});

afterAll(async () => {
  await bot?.close();
});

/** Every text of a Block Kit view, with its line breaks. */
function textOf(value: unknown): string {
  return JSON.stringify(value).replace(/\\n/g, '\n');
}

describe('the Slack App Home tab', () => {
  it("publishes the maintainer's tools and the approval waiting for them when they open it", async () => {
    const now = Date.now();
    const record: ApprovalRecord = {
      id: 'slackhome1',
      tool: 'mytool',
      command: 'deploy',
      requester: {
        platform: 'slack',
        id: USERS.stranger.id,
        name: 'sam',
        workspace: bot.fake.options.teamId,
      },
      conversationId: `slack:${bot.fake.options.teamId}:CHOME`,
      args: JSON.stringify({ tool: 'mytool' }),
      question: 'Deploy mytool?',
      approvers: 1,
      expiresAt: now + 600_000,
      state: 'open',
      decisions: [],
    };
    await bot.app.services.accounts.approvals.open(record);

    const delivery = await bot.driver.appHomeOpened(USERS.maintainer);
    expect(delivery.status).toBe(200);
    const published = await waitFor(() => bot.fake.homeViews.find((v) => v.user === USERS.maintainer.id));
    expect(published.view.type).toBe('home');
    const shown = textOf(published.view.blocks);
    expect(shown).toContain('Your tools');
    expect(shown).toMatch(/mytool: \[(ok|deploying|warning|failing)\]/);
    expect(shown).toContain('Approvals waiting for you');
    expect(shown).toMatch(/mytool: \/deckhand deploy asked by sam, expires in /);
    expect(bot.fake.callsOf('views.publish').every((c) => c.status === 200 && !c.error)).toBe(true);
    expect(bot.fake.violations).toEqual([]);
  });

  it('tells someone with nothing linked what to link, on their own tab only', async () => {
    await bot.driver.appHomeOpened(USERS.stranger);
    const published = await waitFor(() => bot.fake.homeViews.find((v) => v.user === USERS.stranger.id));
    const shown = textOf(published.view.blocks);
    expect(shown).toContain('does not know any tool of yours yet');
    expect(shown).toContain('/deckhand link source');
    // Nothing was posted in a conversation for either view.
    expect(bot.fake.callsOf('chat.postMessage')).toEqual([]);
    expect(bot.fake.callsOf('chat.postEphemeral')).toEqual([]);
  });

  it('publishes nothing when the Messages tab is opened', async () => {
    const before = bot.fake.homeViews.length;
    await bot.driver.appHomeOpened(USERS.admin, 'messages');
    // Positive control after it: the Home tab of the same person is published (events are handled in order of arrival).
    await bot.driver.appHomeOpened(USERS.admin);
    await waitFor(() => bot.fake.homeViews.find((v) => v.user === USERS.admin.id));
    await bot.settled();
    expect(bot.fake.homeViews.slice(before).map((v) => v.user)).toEqual([USERS.admin.id]);
  });

  it('the fake refuses what Slack refuses of views.publish (a modal view, a bad user id)', async () => {
    const publish = async (form: Record<string, string>) => {
      const answer = await fetch(`${bot.fake.apiUrl}views.publish`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bot.fake.options.botToken}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(form),
      });
      return (await answer.json()) as { ok: boolean; error?: string };
    };
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'hello' } }];
    expect(
      await publish({ user_id: USERS.admin.id, view: JSON.stringify({ type: 'home', blocks }) }),
    ).toMatchObject({
      ok: true,
    });
    const modal = JSON.stringify({ type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks });
    expect(await publish({ user_id: USERS.admin.id, view: modal })).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
    });
    const home = JSON.stringify({ type: 'home', blocks });
    expect(await publish({ user_id: 'not-a-user', view: home })).toMatchObject({ ok: false });
    expect(await publish({ view: home })).toMatchObject({ ok: false });
    // These refusals were this test's own doing: the bot sent nothing Slack would refuse.
    expect(bot.fake.violations.length).toBeGreaterThan(0);
    bot.fake.violations.splice(0);
  });
});

describe('the Slack App Home tab in Socket Mode', () => {
  it('is published the same way when the event arrives over the socket', async () => {
    const socketBot = await startSlackBot({ mode: 'socket' });
    try {
      await socketBot.driver.appHomeOpened(USERS.maintainer);
      const published = await waitFor(() =>
        socketBot.fake.homeViews.find((v) => v.user === USERS.maintainer.id),
      );
      expect(textOf(published.view.blocks)).toMatch(/mytool: \[(ok|deploying|warning|failing)\]/);
    } finally {
      await socketBot.close();
    }
  });
});
