/**
 * Venues, organizers, categories and tags changed and deleted from chat, and `/events --organizer
 * --status`, through the real runner on the calendar sandbox. A delete asks first and names the
 * events that use the thing; nothing changes before Confirm, or when the input is wrong.
 */

import type { CalendarSandbox } from '@deckhand/sandbox/calendar';
import type { OrganizerPost, VenuePost } from '@deckhand/sandbox/calendar/state';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import { button, startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

let t: TestApp;
let calendar: CalendarSandbox;

useStarted(startTestApp, (started) => {
  t = started;
  calendar = t.app.emulators.calendar as CalendarSandbox;
});

const venue = (name: string) =>
  calendar.state.postsOf('venue').find((v) => v.name === name && v.status !== 'trash') as VenuePost;
const organizer = (name: string) =>
  calendar.state.postsOf('organizer').find((o) => o.name === name) as OrganizerPost;
const term = (name: string) => [...calendar.state.terms.values()].find((x) => x.name === name);
const eventNamed = (title: string) => calendar.state.postsOf('event').find((e) => e.title === title);
/** Everything about the calendar's venues, organizers and terms, to prove nothing changed. */
const snapshot = () =>
  JSON.stringify([
    calendar.state.postsOf('venue'),
    calendar.state.postsOf('organizer'),
    [...calendar.state.terms.values()],
    calendar.state.postsOf('event').map((e) => [e.venues, e.organizers, e.categories, e.tags]),
  ]);
const said = (card: Card | undefined) => `${card?.title ?? ''}\n${card?.text ?? ''}`;

describe('/venues update|delete', () => {
  it('changes only the options given', async () => {
    const before = venue('Community Room');
    const [card] = await t.say('/venues update "Community Room" --phone "+49 30 555"');
    expect(card?.text).toBe(`Venue #${before.id} “Community Room” updated.`);
    expect(venue('Community Room').details).toMatchObject({
      phone: '+49 30 555',
      address: 'Gartenweg 5',
      city: 'Berlin',
    });
  });

  it.each([
    ['/venues update "Community Room"', /Nothing to change\./],
    ['/venues update Atlantis --phone 1', /There is no venue named “Atlantis”/],
    ['/venues update "Community Room" --website not-a-url', /Invalid --website/],
    ['/venues delete Atlantis', /There is no venue named “Atlantis”/],
    [
      '/venues delete Studio',
      /2 venues are called “Studio”: Studio — Oranienstraße 12, Berlin \(#\d+\); Studio — Speicherstadt 3, Hamburg \(#\d+\)/,
    ],
    ['/venues delete 99999', /There is no venue with id 99999/],
  ])('%s → a clear message, nothing changed or asked', async (line, expected) => {
    const before = snapshot();
    const cards = await t.say(line);
    expect(said(cards[0])).toMatch(expected);
    expect(cards.some((c) => c.title === 'Please confirm')).toBe(false);
    expect(snapshot()).toBe(before);
  });

  it('an ambiguous name to update gets a choice; the chosen button changes that one only', async () => {
    const [choice] = await t.say('/venues update Studio --phone "040 123"');
    expect(choice?.title).toBe('Which venue “Studio”?');
    const hamburg = calendar.state.postsOf('venue').find((v) => v.details.city === 'Hamburg') as VenuePost;
    await t.press(button(choice, `Studio — Speicherstadt 3, Hamburg (#${hamburg.id})`));
    expect(hamburg.details.phone).toBe('040 123');
    const berlin = calendar.state
      .postsOf('venue')
      .find((v) => v.details.city === 'Berlin' && v.name === 'Studio');
    expect(berlin?.details.phone).toBeUndefined();
  });

  it('a delete asks first, naming the events at the venue (past ones too); Confirm moves it to the trash', async () => {
    const hall = venue('Main Hall');
    const [ask] = await t.say('/venues delete "Main Hall"');
    expect(ask?.title).toBe('Please confirm');
    expect(ask?.text).toContain(`Move venue #${hall.id} “Main Hall” to the calendar's trash?`);
    expect(ask?.text).toContain('2 events use it:');
    expect(ask?.text).toMatch(/— Monthly Meetup \(#\d+\)/);
    expect(ask?.text).toMatch(/— Last Month’s Meetup \(#\d+\)/);
    // On Slack, command references read `/deckhand event …` (the one Slack command).
    expect(ask?.text).toMatch(/\/(deckhand )?event update <id> --venue/);
    expect(hall.status).toBe('publish');
    const [done] = await t.press(button(ask, 'Confirm'));
    expect(done?.text).toBe(`Venue #${hall.id} “Main Hall” is in the calendar's trash.`);
    expect(hall.status).toBe('trash');
    // The events keep it, as on the real site.
    expect(eventNamed('Monthly Meetup')?.venues).toEqual([hall.id]);
    const [again] = await t.say(`/venues delete ${hall.id}`);
    expect(again?.text).toMatch(new RegExp(`^Venue #${hall.id} “Main Hall” is already in the trash.`));
  });

  it('Confirm does nothing when the venue got another event after the question', async () => {
    const room = venue('Community Room');
    const [ask] = await t.say('/venues delete "Community Room"');
    expect(ask?.text).toMatch(/\d+ events use it:/);
    await t.say('/event create "Late addition" --start "2027-01-05 18:00" --venue "Community Room"');
    const [answer] = await t.press(button(ask, 'Confirm'));
    expect(answer?.text).toContain('changed after you were asked to confirm, so nothing was done');
    expect(room.status).toBe('publish');
  });
});

describe('/organizers update|delete', () => {
  it('updates the given fields, and deletes after a question naming its events', async () => {
    const ada = organizer('Ada Lovelace');
    const [updated] = await t.say('/organizers update "Ada Lovelace" --phone "+44 20 7946 0000"');
    expect(updated?.text).toBe(`Organizer #${ada.id} “Ada Lovelace” updated.`);
    expect(ada.details).toMatchObject({ phone: '+44 20 7946 0000', email: 'ada@example.org' });
    const [bad] = await t.say('/organizers update "Ada Lovelace" --email nope');
    expect(bad?.text).toMatch(/Invalid --email/);

    const team = organizer('Deckhand Meetup Team');
    const [ask] = await t.say(`/organizers delete ${team.id}`);
    expect(ask?.text).toContain(`Move organizer #${team.id} “Deckhand Meetup Team” to the calendar's trash?`);
    expect(ask?.text).toContain('1 event uses it:');
    expect(ask?.text).toMatch(/Monthly Meetup/);
    expect(team.status).toBe('publish');
    const [done] = await t.press(button(ask, 'Confirm'));
    expect(done?.text).toContain("is in the calendar's trash");
    expect(team.status).toBe('trash');
  });
});

describe('/categories and /tags update|delete', () => {
  it('renames a category and keeps its slug; a slug another category has is refused first', async () => {
    const meetup = term('Meetup');
    const [refused] = await t.say('/categories update Meetup --slug workshop');
    expect(refused?.text).toContain(
      `The category “Workshop” (#${term('Workshop')?.id}) already has the slug workshop.`,
    );
    expect(term('Meetup')?.slug).toBe('meetup');
    const [card] = await t.say('/categories update Meetup --name Meetups --description "Evening meetups"');
    expect(card?.text).toBe(`Category #${meetup?.id} “Meetups” updated (slug meetup).`);
    expect(meetup).toMatchObject({ name: 'Meetups', slug: 'meetup', description: 'Evening meetups' });
  });

  it.each([
    ['/categories update Talk --parent Talk', /cannot be its own parent/],
    ['/categories update Talk --description ""', /Invalid --description: must not be empty/],
    ['/categories update Talk --slug "Not A Slug"', /Invalid --slug/],
    ['/categories update Talk', /Nothing to change/],
    ['/tags update nothing-like-it --name x', /There is no tag named “nothing-like-it”/],
    ['/tags update beginner --parent x', /Unknown option --parent/],
    ['/categories delete 99999', /There is no category with id 99999/],
  ])('%s → a clear message, nothing changed', async (line, expected) => {
    const before = snapshot();
    const [card] = await t.say(line);
    expect(said(card)).toMatch(expected);
    expect(snapshot()).toBe(before);
  });

  it('a category delete names its events (drafts too, not the trash), then deletes it for good', async () => {
    const talk = term('Talk');
    const [ask] = await t.say('/categories delete Talk');
    expect(ask?.text).toContain(`Delete category #${talk?.id} “Talk” for good?`);
    expect(ask?.text).toContain('2 events use it:');
    expect(ask?.text).toMatch(/Planning Session \(#\d+\) \[draft\]/);
    expect(ask?.text).not.toContain('Cancelled Talk');
    expect(term('Talk')).toBeDefined();
    const [done] = await t.press(button(ask, 'Confirm'));
    expect(done?.text).toBe(`Category “Talk” (#${talk?.id}) is deleted.`);
    expect(term('Talk')).toBeUndefined();
    expect(eventNamed('Planning Session')?.categories).toEqual([]);
  });

  it('the delete question of a category no event uses does not talk about its events', async () => {
    await t.say('/categories create "Never used"');
    const unused = term('Never used');
    expect(unused).toBeDefined();
    const [ask] = await t.say('/categories delete "Never used"');
    expect(ask?.text).toContain(`Delete category #${unused?.id} “Never used” for good?`);
    expect(ask?.text).toContain('No event uses it.');
    expect(ask?.text).not.toContain('Those events');
    await t.press(button(ask, 'Confirm'));
    expect(term('Never used')).toBeUndefined();
  });

  it('updates and deletes a tag', async () => {
    const js = term('javascript');
    const [card] = await t.say('/tags update javascript --name JavaScript --slug js');
    expect(card?.text).toBe(`Tag #${js?.id} “JavaScript” updated (slug js).`);
    const [ask] = await t.say('/tags delete JavaScript');
    expect(ask?.text).toContain('1 event uses it:');
    await t.press(button(ask, 'Confirm'));
    expect(term('JavaScript')).toBeUndefined();
  });
});

describe('/events --organizer --status', () => {
  it('lists only the events of an organizer', async () => {
    const [card] = await t.say('/events --organizer "Ada Lovelace"');
    const titles = card?.fields?.map((f) => f.value) ?? [];
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.every((v) => /Office Hours|Intro to TypeScript/.test(v))).toBe(true);
  });

  it('lists drafts, or the trash, with --status', async () => {
    const [drafts] = await t.say('/events --status draft');
    expect(drafts?.fields?.map((f) => f.value)).toEqual([
      expect.stringMatching(/^Planning Session .*\[draft\]$/),
    ]);
    const [trash] = await t.say('/events --status trash');
    expect(trash?.fields?.map((f) => f.value)).toEqual([
      expect.stringMatching(/^Cancelled Talk .*\[trash\]$/),
    ]);
    const [bad] = await t.say('/events --status any');
    expect(bad?.text).toMatch(/Invalid --status/);
  });
});
