import { jobsRuntimeOf } from '@deckhand/sandbox/toolhost/jobs';
import { describe, expect, it } from 'vitest';
import type { FakeMessage, SlackActor } from '../fakes/slack';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let bot: SlackBot;

useFakePlatform(startSlackBot, (started) => {
  bot = started;
});

type Element = { text: { text: string }; confirm?: unknown; style?: string };
const sandbox = () => bot.app.emulators.toolhost as NonNullable<typeof bot.app.emulators.toolhost>;
const restarts = () => jobsRuntimeOf(sandbox().ctx).get('mytool', 'web')?.restarts ?? 0;
const buttons = (message: FakeMessage) =>
  ((message.attachments[0]?.blocks ?? []) as { type: string; elements?: Element[] }[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? []);

/** Posts the card of job web with `/jobs show` in a fresh channel and returns it. */
async function jobCard(channel: string, user: SlackActor = USERS.maintainer): Promise<FakeMessage> {
  await bot.driver.command(user, channel, '/jobs show mytool web');
  return waitFor(() => bot.fake.channelMessages(channel)[0]);
}

describe('Slack buttons', () => {
  it('restarts the job once when the same Restart click is delivered twice', async () => {
    const card = await jobCard('C0BTN1');
    expect(buttons(card).map((b) => b.text.text)).toEqual(['Restart', 'Logs', 'Delete']);
    const before = restarts();
    const click = bot.driver.clickPayload(USERS.maintainer, card, 'Restart');
    const deliveries = await Promise.all([bot.driver.interact(click), bot.driver.interact(click)]);
    expect(deliveries.map((d) => d.status)).toEqual([200, 200]);
    expect(Math.max(...deliveries.map((d) => d.ms))).toBeLessThan(3000);
    await waitFor(() => bot.fake.channelMessages('C0BTN1').length >= 2);
    await bot.settled();
    expect(restarts()).toBe(before + 1);
    expect(bot.fake.channelMessages('C0BTN1')).toHaveLength(2);
  });

  it('restarts the job once when the same person double-clicks Restart', async () => {
    const card = await jobCard('C0BTN2');
    const before = restarts();
    await Promise.all([
      bot.driver.click(USERS.maintainer, card, 'Restart'),
      bot.driver.click(USERS.maintainer, card, 'Restart'),
    ]);
    await waitFor(() => bot.fake.channelMessages('C0BTN2').length >= 2);
    await bot.settled();
    expect(restarts()).toBe(before + 1);
  });

  it('only acknowledges a link button (it opens a page), and runs nothing', async () => {
    const card = await jobCard('C0BTN9');
    const before = restarts();
    const click = bot.driver.clickPayload(USERS.maintainer, card, 'Restart');
    const [action] = click.actions as Record<string, unknown>[];
    const link = {
      ...click,
      actions: [{ ...action, action_id: 'dh-link.0', url: 'https://example.org/docs', value: undefined }],
    };
    const delivery = await bot.driver.interact(link);
    expect(delivery.status).toBe(200);
    await bot.settled();
    expect(restarts()).toBe(before);
    expect(bot.fake.channelMessages('C0BTN9')).toHaveLength(1);
    expect(bot.fake.ephemerals.filter((e) => e.channel === 'C0BTN9')).toEqual([]);
    // The same click on the card's own button runs: the check above would have seen it.
    await bot.driver.interact(click);
    await waitFor(() => restarts() === before + 1);
  });

  it('checks the rights of the person who clicks, not of the one who posted the card', async () => {
    const card = await jobCard('C0BTN3', USERS.admin);
    const before = restarts();
    await bot.driver.click(USERS.stranger, card, 'Restart');
    const refusal = await waitFor(() => bot.fake.ephemerals.find((e) => e.channel === 'C0BTN3'));
    expect(refusal.user).toBe(USERS.stranger.id);
    expect(JSON.stringify(refusal.body)).toContain('Only maintainers of mytool');
    await bot.settled();
    expect(restarts()).toBe(before);
    await bot.driver.click(USERS.maintainer, card, 'Restart');
    await waitFor(() => restarts() === before + 1);
  });

  it("uses Slack's confirm dialog only where the command does not ask itself", async () => {
    const card = await jobCard('C0BTN4');
    const del = buttons(card).find((b) => b.text.text === 'Delete');
    expect(del?.style).toBe('danger');
    expect(del?.confirm).toBeUndefined();
    await bot.driver.click(USERS.maintainer, card, 'Delete');
    const question = await waitFor(() => bot.fake.channelMessages('C0BTN4')[1]);
    expect(JSON.stringify(question.attachments)).toContain('Stop and delete job web of mytool?');
    const confirm = buttons(question).find((b) => b.text.text === 'Confirm');
    expect(confirm?.style).toBe('danger');
    expect(confirm?.confirm).toBeUndefined();
    expect(jobsRuntimeOf(sandbox().ctx).get('mytool', 'web')).toBeDefined();
  });
});
