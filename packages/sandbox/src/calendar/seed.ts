/**
 * The sandbox site's content: three users (an editor whose application password the sandbox
 * wiring uses, a contributor whose events go to review, a subscriber who may not write), venues
 * (two named "Studio", to show how an ambiguous name is resolved), organizers, categories, tags,
 * and events around the current date — upcoming, past, a draft, one in the trash, a
 * password-protected one and a weekly series long enough to need a second page.
 */
import { DateTime } from 'luxon';
import {
  type CalendarState,
  type EventPost,
  newEventPost,
  type OrganizerPost,
  type Term,
  type VenuePost,
  type WpUser,
} from './state';

/** Application passwords of the seeded users (as WordPress shows them, in groups of four). */
export const SANDBOX_CALENDAR_USERS = {
  editor: { user: 'deckhand', appPassword: 'Sbx4 Cal7 Evt2 Pwd9 Dkh3 Nd8x' },
  contributor: { user: 'casey', appPassword: 'Cnt1 Rbt2 Rcs3 Ysb4 Xpw5 Dz6q' },
  subscriber: { user: 'sam', appPassword: 'Sub1 Scr2 Ibr3 Sam4 Pwd5 Xx6y' },
} as const;

/** The password of the seeded password-protected event. */
export const SANDBOX_EVENT_PASSWORD = 'members-only';

/** Fills an empty site. */
export function seedCalendar(state: CalendarState): void {
  const editor = state.addUser(
    SANDBOX_CALENDAR_USERS.editor.user,
    'editor',
    SANDBOX_CALENDAR_USERS.editor.appPassword,
    'Deckhand Bot',
  );
  state.addUser(
    SANDBOX_CALENDAR_USERS.contributor.user,
    'contributor',
    SANDBOX_CALENDAR_USERS.contributor.appPassword,
  );
  state.addUser(
    SANDBOX_CALENDAR_USERS.subscriber.user,
    'subscriber',
    SANDBOX_CALENDAR_USERS.subscriber.appPassword,
  );
  const now = state.now();

  /** What a venue or an organizer published by the editor has besides its type and details. */
  const published = (type: 'venue' | 'organizer', name: string) => ({
    id: state.newPostId(),
    name,
    slug: state.uniqueSlug(type, name),
    status: 'publish',
    author: editor.id,
    date: now,
    modified: now,
    description: '',
    excerpt: '',
  });
  const venue = (name: string, details: VenuePost['details']): VenuePost => {
    const post: VenuePost = {
      type: 'venue',
      ...published('venue', name),
      details,
      showMap: true,
      showMapLink: true,
    };
    state.posts.set(post.id, post);
    return post;
  };
  const mainHall = venue('Main Hall', {
    address: 'Hauptstraße 1',
    city: 'Berlin',
    country: 'Germany',
    zip: '10115',
  });
  const room = venue('Community Room', { address: 'Gartenweg 5', city: 'Berlin', country: 'Germany' });
  const studioBerlin = venue('Studio', { address: 'Oranienstraße 12', city: 'Berlin', country: 'Germany' });
  venue('Studio', { address: 'Speicherstadt 3', city: 'Hamburg', country: 'Germany' });

  const organizer = (name: string, details: OrganizerPost['details']): OrganizerPost => {
    const post: OrganizerPost = { type: 'organizer', ...published('organizer', name), details };
    state.posts.set(post.id, post);
    return post;
  };
  const team = organizer('Deckhand Meetup Team', {
    email: 'meetup@example.org',
    website: 'https://example.org',
  });
  const ada = organizer('Ada Lovelace', { email: 'ada@example.org' });

  const term = (taxonomy: Term['taxonomy'], name: string): Term => {
    const created: Term = {
      id: state.newTermId(),
      taxonomy,
      name,
      slug: state.uniqueTermSlug(taxonomy, name),
      description: '',
      parent: 0,
    };
    state.terms.set(created.id, created);
    return created;
  };
  const meetup = term('tribe_events_cat', 'Meetup');
  const workshop = term('tribe_events_cat', 'Workshop');
  const talk = term('tribe_events_cat', 'Talk');
  term('tribe_events_cat', 'Conference');
  const beginner = term('post_tag', 'beginner');
  const javascript = term('post_tag', 'javascript');

  const zone = state.site.timezone;
  const today = DateTime.fromMillis(now, { zone }).startOf('day');
  const event = (
    title: string,
    days: number,
    from: string,
    to: string,
    extra: Partial<EventPost> = {},
    author: WpUser = editor,
  ): EventPost => {
    const day = today.plus({ days });
    const at = (hhmm: string) => {
      const [h, m] = hhmm.split(':').map(Number) as [number, number];
      return day.set({ hour: h, minute: m }).toMillis();
    };
    const post = newEventPost(state, {
      title,
      slug: state.uniqueSlug('event', title),
      status: 'publish',
      author: author.id,
      date: now,
      modified: now,
      startUtc: at(from),
      endUtc: at(to),
      timezone: zone,
      ...extra,
    });
    state.posts.set(post.id, post);
    return post;
  };
  event('Monthly Meetup', 3, '18:00', '21:00', {
    description: 'Lightning talks, pizza & a look at what everyone is building.',
    venues: [mainHall.id],
    organizers: [team.id],
    categories: [meetup.id],
    tags: [beginner.id],
    featured: true,
  });
  event('Intro to TypeScript - Workshop', 10, '10:00', '16:00', {
    description: 'Bring a laptop. We start from zero.',
    venues: [room.id],
    organizers: [ada.id],
    categories: [workshop.id],
    tags: [javascript.id, beginner.id],
    cost: '15',
  });
  const party = today.plus({ days: 30 });
  event('Community Party', 30, '00:00', '23:59', {
    allDay: true,
    endUtc: party.endOf('day').set({ millisecond: 0 }).toMillis(),
    venues: [studioBerlin.id],
    categories: [meetup.id],
  });
  event("Last Month's Meetup", -30, '18:00', '21:00', { venues: [mainHall.id], categories: [meetup.id] });
  event('Planning Session', 5, '17:00', '18:00', { status: 'draft', categories: [talk.id] });
  event('Cancelled Talk', 12, '19:00', '20:00', {
    status: 'trash',
    trashedFrom: 'publish',
    slug: 'cancelled-talk__trashed',
    categories: [talk.id],
  });
  event("Members' Evening", 7, '19:00', '22:00', {
    password: SANDBOX_EVENT_PASSWORD,
    description: 'For members only.',
    venues: [room.id],
    categories: [talk.id],
  });
  for (let week = 0; week < 12; week++) {
    event(`Open Office Hours #${week + 1}`, 1 + week * 7, '17:00', '18:00', {
      venues: [room.id],
      organizers: [ada.id],
    });
  }
}
