/** /calendar digest: one BullMQ job scheduler per conversation in real Redis, and its runs posting the digest. */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ConversationGoneError } from '../../src/core/errors';
import { digestSchedulerId } from '../../src/queue/digest-scheduler';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let t: TestApp;

useStarted(startTestApp, (started) => {
  t = started;
});

const CHANNEL = 'slack:T1:C1';
const scheduler = (conversationId = CHANNEL) =>
  t.app.queues.digest.getJobScheduler(digestSchedulerId(conversationId));

/** The first `hour`:`minute` on Berlin's wall clock after `from`, as Unix ms. */
function nextBerlin(hour: number, minute: number, from: number): number {
  const sameDay = DateTime.fromMillis(from, { zone: 'Europe/Berlin' }).set({
    hour,
    minute,
    second: 0,
    millisecond: 0,
  });
  return (sameDay.toMillis() > from ? sameDay : sameDay.plus({ days: 1 })).toMillis();
}

describe('/calendar digest', () => {
  it('stores a daily digest as a job scheduler in Redis: cron at the time asked, in the site’s zone', async () => {
    const asked = Date.now();
    const [card] = await t.say('/calendar digest --daily --at 9:00');
    expect(card?.text).toContain('This conversation now gets a daily digest at 09:00 (Europe/Berlin)');
    const stored = await scheduler();
    expect(stored).toMatchObject({ pattern: '0 9 * * *', tz: 'Europe/Berlin' });
    expect(stored?.template?.data).toMatchObject({
      conversationId: CHANNEL,
      platform: 'slack',
      every: 'daily',
      at: '09:00',
    });
    // The first 09:00 after the scheduler was stored: the same instant from before asking and from
    // now, unless 09:00 came in between (then either).
    expect([nextBerlin(9, 0, asked), nextBerlin(9, 0, Date.now())]).toContain(stored?.next);
    const delayed = await t.app.queues.digest.getDelayed();
    expect(delayed.filter((job) => job.data.conversationId === CHANNEL)).toHaveLength(1);
    const [status] = await t.say('/calendar digest');
    expect(status?.text).toContain('This conversation gets a daily digest at 09:00 (Europe/Berlin)');
  });

  it('changes the same scheduler when asked again (one per conversation); other conversations get their own', async () => {
    await t.say('/calendar digest --weekly --day fri --at 17:30 --timezone America/New_York');
    const stored = await scheduler();
    expect(stored).toMatchObject({ pattern: '30 17 * * 5', tz: 'America/New_York' });
    await t.say('/calendar digest --daily', { private: true });
    expect(await scheduler('slack:T1:D1')).toMatchObject({ pattern: '0 9 * * *' });
    const all = await t.app.queues.digest.getJobSchedulers();
    expect(all.map((s) => s.key).sort()).toEqual([
      digestSchedulerId('slack:T1:C1'),
      digestSchedulerId('slack:T1:D1'),
    ]);
  });

  it('refuses bad settings with a clear message and keeps the digest as it was', async () => {
    for (const [line, expected] of [
      ['/calendar digest --daily --weekly', 'Choose one of --daily, --weekly and --off.'],
      ['/calendar digest --daily --at 25:00', 'Invalid --at: must be a time of day such as 09:00'],
      ['/calendar digest --weekly --day someday', 'Invalid --day'],
      ['/calendar digest --daily --timezone Nowhere/Land', 'Invalid --timezone'],
    ] as const) {
      const [card] = await t.say(line);
      expect(card?.text, line).toContain(expected);
    }
    expect(await scheduler()).toMatchObject({ pattern: '30 17 * * 5', tz: 'America/New_York' });
  });

  it('points /subscribe calendar at the digest', async () => {
    const [card] = await t.say('/subscribe calendar');
    expect(card?.text).toContain(
      'The calendar has a digest instead.\n/deckhand calendar digest --daily|--weekly',
    );
  });

  it('runs: a digest job posts the upcoming events to the conversation (and --preview shows it now)', async () => {
    const [preview] = await t.say('/calendar digest --preview');
    expect(preview?.title).toBe('Events in the next 7 days');
    expect(preview?.fields?.map((f) => f.value.split(' · ')[0])).toContain('Monthly Meetup');
    const stored = await scheduler();
    const before = t.transcript.posted.length;
    await t.app.queues.digest.add('digest', stored?.template?.data);
    const posted = await waitFor(() =>
      t.transcript.posted.slice(before).find((card) => card.title === 'Events in the next 7 days'),
    );
    expect(posted.fields?.map((f) => f.value.split(' · ')[0])).toContain('Monthly Meetup');
    expect(posted.buttons?.map((b) => b.label)).toEqual(['All upcoming events']);
    expect(posted.footer).toContain('weekly digest on Fridays at 17:30 (America/New_York)');
  });

  it('stops a conversation’s digest when the bot can no longer post there', async () => {
    t.app.messengers.register('discord', {
      async post(conversationId) {
        throw new ConversationGoneError(conversationId, 'Missing Access');
      },
      async update() {},
    });
    const gone = 'discord:G1:C9';
    await t.app.services.digests.set({
      conversationId: gone,
      platform: 'discord',
      every: 'weekly',
      at: '09:00',
      weekday: 1,
      timezone: 'Europe/Berlin',
      createdBy: 'discord:1',
    });
    expect(await scheduler(gone)).toBeDefined();
    await t.app.queues.digest.add('digest', (await scheduler(gone))?.template?.data);
    await waitFor(async () => (await scheduler(gone)) === undefined);
  });

  it('stops with --off, removing the scheduler and its next run from Redis', async () => {
    const [card] = await t.say('/calendar digest --off');
    expect(card?.text).toBe('The calendar digest here is stopped.');
    expect(await scheduler()).toBeUndefined();
    const delayed = await t.app.queues.digest.getDelayed();
    expect(delayed.filter((job) => job.data.conversationId === CHANNEL)).toHaveLength(0);
    const [again] = await t.say('/calendar digest --off');
    expect(again?.text).toBe('This conversation has no calendar digest.');
  });
});
