/**
 * The state of the emulated WordPress site: users with roles and application passwords, posts
 * (events, venues, organizers — one id sequence, as WordPress's `wp_posts`), terms (categories and
 * tags — one id sequence, as `wp_terms`), and the site's settings.
 */

/** WordPress roles the emulator knows, with the capabilities the plugin checks. */
export type WpRole = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

/** A site user. */
export interface WpUser {
  id: number;
  login: string;
  displayName: string;
  role: WpRole;
  /** Application passwords, without spaces. */
  appPasswords: string[];
}

/** Capabilities on events, venues and organizers (one set: the plugin maps them alike). */
export interface Capabilities {
  editPosts: boolean;
  publishPosts: boolean;
  deletePosts: boolean;
  editOthersPosts: boolean;
  readPrivate: boolean;
  manageTerms: boolean;
}

const CAPABILITIES = [
  'editPosts',
  'publishPosts',
  'deletePosts',
  'editOthersPosts',
  'readPrivate',
  'manageTerms',
] as const satisfies readonly (keyof Capabilities)[];

/** Capabilities with those `granted` true and the rest false. */
function granting(...granted: (keyof Capabilities)[]): Capabilities {
  return Object.fromEntries(
    CAPABILITIES.map((name) => [name, granted.includes(name)]),
  ) as unknown as Capabilities;
}

const CAPS: Record<WpRole, Capabilities> = {
  administrator: granting(...CAPABILITIES),
  editor: granting(...CAPABILITIES),
  author: granting('editPosts', 'publishPosts', 'deletePosts'),
  contributor: granting('editPosts', 'deletePosts'),
  subscriber: granting(),
};

/** The capabilities of a user, or of an anonymous visitor. */
export function capsOf(user: WpUser | undefined): Capabilities {
  return user ? CAPS[user.role] : CAPS.subscriber;
}

/** Fields every post type shares. */
interface PostBase {
  id: number;
  slug: string;
  /** `publish`, `draft`, `pending`, `private`, `future`, `trash`. */
  status: string;
  /** Status before it was trashed. */
  trashedFrom?: string;
  author: number;
  /** Publication and modification moments (Unix ms). */
  date: number;
  modified: number;
  description: string;
  excerpt: string;
  password?: string;
  image?: { id: number; url: string; width: number; height: number } | undefined;
}

/** An event. Times are kept as UTC instants plus the event's zone. */
export interface EventPost extends PostBase {
  type: 'event';
  title: string;
  startUtc: number;
  endUtc: number;
  timezone: string;
  /**
   * The stored wall-clock `_EventStartDate`/`_EventEndDate` (`YYYY-MM-DD HH:MM:SS`) when they no
   * longer match `startUtc` in `timezone`: the plugin's update resets the zone to the site's without
   * recomputing either (the-events-calendar 6.17.2 `src/Tribe/API.php` `prepare_event_date_meta`).
   * Undefined when they are `startUtc`/`endUtc` read in `timezone`.
   */
  localStart?: string | undefined;
  localEnd?: string | undefined;
  allDay: boolean;
  cost: string;
  /** `_EventURL`; undefined when never set (the API then shows the event's own page), `''` when emptied. */
  website?: string | undefined;
  showMap: boolean;
  showMapLink: boolean;
  hideFromListings: boolean;
  sticky: boolean;
  featured: boolean;
  categories: number[];
  tags: number[];
  venues: number[];
  organizers: number[];
}

/**
 * A new event with the plugin's defaults under `fields`: untitled, no text, no cost, map and map
 * link shown, no categories, tags, venues or organizers, starting and ending now in the site's zone.
 */
export function newEventPost(
  state: Pick<CalendarState, 'now' | 'newPostId' | 'site'>,
  fields: Pick<EventPost, 'status' | 'author'> & Partial<EventPost>,
): EventPost {
  const now = state.now();
  return {
    type: 'event',
    id: state.newPostId(),
    slug: '',
    title: '',
    date: now,
    modified: now,
    description: '',
    excerpt: '',
    startUtc: now,
    endUtc: now,
    timezone: state.site.timezone,
    allDay: false,
    cost: '',
    showMap: true,
    showMapLink: true,
    hideFromListings: false,
    sticky: false,
    featured: false,
    categories: [],
    tags: [],
    venues: [],
    organizers: [],
    ...fields,
  };
}

/** A venue (`name` is the `venue` field). */
export interface VenuePost extends PostBase {
  type: 'venue';
  name: string;
  details: Partial<Record<VenueDetail, string>>;
  showMap: boolean;
  showMapLink: boolean;
}

/** An organizer (`name` is the `organizer` field). */
export interface OrganizerPost extends PostBase {
  type: 'organizer';
  name: string;
  details: Partial<Record<OrganizerDetail, string>>;
}

/** Text fields of a venue besides its name and description. */
export const VENUE_DETAILS = [
  'address',
  'city',
  'country',
  'province',
  'state',
  'stateprovince',
  'zip',
  'phone',
  'website',
] as const;
/** One of {@link VENUE_DETAILS}. */
export type VenueDetail = (typeof VENUE_DETAILS)[number];

/** Text fields of an organizer besides its name and description. */
export const ORGANIZER_DETAILS = ['phone', 'website', 'email'] as const;
/** One of {@link ORGANIZER_DETAILS}. */
export type OrganizerDetail = (typeof ORGANIZER_DETAILS)[number];

/** Any post. */
export type Post = EventPost | VenuePost | OrganizerPost;

/** The two taxonomies. */
export type Taxonomy = 'tribe_events_cat' | 'post_tag';

/** A category or tag. */
export interface Term {
  id: number;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  description: string;
  parent: number;
}

/** An error the site answers once, for the next request that matches. */
export interface ScriptedFailure {
  method: string;
  /** Path under the namespace, e.g. `/events`. */
  path: string;
  status: number;
  code: string;
  message: string;
}

/** Site settings. */
export interface SiteSettings {
  name: string;
  /** Public address, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** IANA zone of the site. */
  timezone: string;
  /** The plugin's "posts per page" (the `per_page` default). */
  perPage: number;
  /** Option `rest-v1-disabled`: the plugin's routes do not exist. */
  apiDisabled: boolean;
  /** A web server in front that drops the `Authorization` header (every caller is anonymous). */
  stripsAuthorization?: boolean;
  /**
   * Option `tribe_events_timezone_mode`: `event` (the plugin's default) compares date filters with
   * each event's own wall-clock `_EventStartDate`; `site` compares with `_EventStartDateUTC`
   * (the-events-calendar 6.17.2 `src/Tribe/Repositories/Event.php` constructor).
   */
  timezoneMode?: 'event' | 'site' | undefined;
}

/** The whole site. */
export class CalendarState {
  readonly users: WpUser[] = [];
  readonly posts = new Map<number, Post>();
  readonly terms = new Map<number, Term>();
  /** Scripted failures (test knob): the next matching request is answered with this error. */
  readonly failures: ScriptedFailure[] = [];
  private nextPostId = 10;
  private nextTermId = 2;
  private nextUserId = 1;

  constructor(
    readonly site: SiteSettings,
    /** The current time (tests may move it). */
    readonly now: () => number = Date.now,
  ) {}

  /** Adds a user with an application password (spaces allowed, as WordPress shows it). */
  addUser(login: string, role: WpRole, appPassword?: string, displayName = login): WpUser {
    const user: WpUser = {
      id: this.nextUserId++,
      login,
      displayName,
      role,
      appPasswords: appPassword ? [appPassword.replace(/\s+/g, '')] : [],
    };
    this.users.push(user);
    return user;
  }

  /** A new post id. */
  newPostId(): number {
    return this.nextPostId++;
  }

  /** A new term id. */
  newTermId(): number {
    return this.nextTermId++;
  }

  /** Posts of one type, by id order. */
  postsOf<T extends Post['type']>(type: T): Extract<Post, { type: T }>[] {
    return [...this.posts.values()].filter((p): p is Extract<Post, { type: T }> => p.type === type);
  }

  /** A post of one type by id. */
  post<T extends Post['type']>(type: T, id: number): Extract<Post, { type: T }> | undefined {
    const post = this.posts.get(id);
    return post?.type === type ? (post as Extract<Post, { type: T }>) : undefined;
  }

  /** A post of one type by slug (trashed ones too, as WordPress finds them by `name`). */
  postBySlug<T extends Post['type']>(type: T, slug: string): Extract<Post, { type: T }> | undefined {
    const posts = this.postsOf(type);
    // Exact `post_name` only, as `get_page_by_path` (a trashed post's slug is `<slug>__trashed`).
    return posts.find((p) => p.slug === slug);
  }

  /** A slug not used by another post of the type: `hack-night`, `hack-night-2`… */
  uniqueSlug(type: Post['type'], wanted: string, exceptId?: number): string {
    const base = slugify(wanted) || String(this.nextPostId);
    let slug = base;
    for (let n = 2; this.postsOf(type).some((p) => p.slug === slug && p.id !== exceptId); n++) {
      slug = `${base}-${n}`;
    }
    return slug;
  }

  /** Terms of one taxonomy. */
  termsOf(taxonomy: Taxonomy): Term[] {
    return [...this.terms.values()].filter((t) => t.taxonomy === taxonomy);
  }

  /** A term slug not used in the taxonomy. */
  uniqueTermSlug(taxonomy: Taxonomy, wanted: string, exceptId?: number): string {
    const base = slugify(wanted) || String(this.nextTermId);
    let slug = base;
    for (let n = 2; this.termsOf(taxonomy).some((t) => t.slug === slug && t.id !== exceptId); n++) {
      slug = `${base}-${n}`;
    }
    return slug;
  }

  /** How many published events use a term (WordPress counts published posts only). */
  termCount(term: Term): number {
    const key = term.taxonomy === 'tribe_events_cat' ? 'categories' : 'tags';
    return this.postsOf('event').filter((e) => e.status === 'publish' && e[key].includes(term.id)).length;
  }
}

/** WordPress's `sanitize_title`, roughly: lower case, ASCII letters and digits joined by dashes. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 190);
}
