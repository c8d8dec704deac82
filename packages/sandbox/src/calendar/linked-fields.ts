/**
 * Venue and organizer fields from a request (their own routes, or inline in an event body), and
 * creation with the plugin's de-duplication: a venue or organizer with the same name and the same
 * details is returned instead of a copy.
 */
import {
  type CalendarState,
  ORGANIZER_DETAILS,
  type OrganizerPost,
  VENUE_DETAILS,
  type VenuePost,
  type WpUser,
} from './state';
import { POST_STATUSES, scaleBackStatus, schemaTypeProblem, truthy } from './wp';

/** The kind of linked post. */
export type LinkedType = 'venue' | 'organizer';

/** Parsed fields, or the names of the parameters that are invalid. */
export type LinkedFields =
  | {
      ok: true;
      name?: string | undefined;
      description?: string | undefined;
      status?: string | undefined;
      details: Record<string, string>;
      showMap?: boolean | undefined;
      showMapLink?: boolean | undefined;
      /** `image`: an attachment id or an image URL (side-loaded); absent: undefined. */
      image?: string | undefined;
    }
  | { ok: false; invalid: string[]; messages?: Record<string, string> };

const URLISH = /^https?:\/\/[^\s]+$/i;
const EMAILISH = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Reads the fields of a venue (`venue` = name) or organizer (`organizer` = name). */
export function readLinkedFields(type: LinkedType, params: Record<string, unknown>): LinkedFields {
  const invalid: string[] = [];
  // `image` is `'type' => 'string'` in CREATE_args of Single_Venue.php and Single_Organizer.php
  // (the-events-calendar 6.17.2): core refuses a JSON number before any validate_callback.
  const imageProblem = schemaTypeProblem('image', params.image, 'string');
  if (imageProblem) return { ok: false, invalid: ['image'], messages: { image: imageProblem } };
  const image = typeof params.image === 'string' && params.image !== '' ? params.image : undefined;
  if (image !== undefined && !/^\d+$/.test(image) && !URLISH.test(image)) invalid.push('image');
  const text = (key: string): string | undefined => {
    const value = params[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' && typeof value !== 'number') {
      invalid.push(key);
      return undefined;
    }
    return String(value);
  };
  const name = text(type);
  if (name !== undefined && name.trim() === '') invalid.push(type);
  const description = text('description');
  const status = text('status');
  if (status !== undefined && !POST_STATUSES.includes(status)) invalid.push('status');
  const details: Record<string, string> = {};
  for (const key of type === 'venue' ? VENUE_DETAILS : ORGANIZER_DETAILS) {
    const value = text(key);
    if (value === undefined) continue;
    if (key === 'website' && value !== '' && !URLISH.test(value)) invalid.push(key);
    else if (key === 'email' && value !== '' && !EMAILISH.test(value)) invalid.push(key);
    else details[key] = value;
  }
  if (invalid.length > 0) return { ok: false, invalid };
  return {
    ok: true,
    name: name?.trim(),
    description,
    status,
    details,
    showMap: params.show_map === undefined ? undefined : truthy(params.show_map),
    showMapLink: params.show_map_link === undefined ? undefined : truthy(params.show_map_link),
    image,
  };
}

/** Creates a venue or organizer (or returns the identical one that exists). Needs a name. */
export function createLinked(
  state: CalendarState,
  user: WpUser | undefined,
  type: LinkedType,
  fields: Extract<LinkedFields, { ok: true }>,
): VenuePost | OrganizerPost | undefined {
  if (!fields.name) return undefined;
  const same = state
    .postsOf(type)
    .find(
      (p) =>
        p.status !== 'trash' &&
        p.name === fields.name &&
        JSON.stringify(p.details) === JSON.stringify({ ...p.details, ...fields.details }),
    );
  if (same) return same;
  const now = state.now();
  const base = {
    id: state.newPostId(),
    slug: state.uniqueSlug(type, fields.name),
    status: scaleBackStatus(user, fields.status),
    author: user?.id ?? 0,
    date: now,
    modified: now,
    description: fields.description ?? '',
    excerpt: '',
    name: fields.name,
    details: fields.details,
    ...(fields.image !== undefined ? { image: attachment(state, fields.image) } : {}),
  };
  const post: VenuePost | OrganizerPost =
    type === 'venue'
      ? { ...base, type: 'venue', showMap: fields.showMap ?? true, showMapLink: fields.showMapLink ?? true }
      : { ...base, type: 'organizer' };
  state.posts.set(post.id, post);
  return post;
}

/** The attachment of an `image` value (an id, or a URL "side-loaded" without fetching it). */
export function attachment(state: CalendarState, image: string) {
  const id = /^\d+$/.test(image) ? Number(image) : state.newPostId();
  const url = URLISH.test(image) ? image : `${state.site.url}/wp-content/uploads/${id}.jpg`;
  return { id, url, width: 1200, height: 630 };
}

/**
 * Applies an update to an existing venue or organizer as the-events-calendar 6.17.2 does
 * (`Single_Venue.php` / `Single_Organizer.php` `prepare_postarr()`, `src/Tribe/Venue.php`
 * `update()` and `save_meta()`, `src/Tribe/Organizer.php` `update()`): fields given are changed,
 * other text fields kept, but an absent `status` is `scale_back_post_status(null)` (publish for an
 * editor), an absent `image` removes the image (`tribe_upload_image(null)` is false), and for
 * venues an absent `show_map`/`show_map_link` turns them on and `stateprovince` is rebuilt from
 * `state` (country US or none) or `province`, else emptied.
 */
export function updateLinked(
  state: CalendarState,
  user: WpUser | undefined,
  post: VenuePost | OrganizerPost,
  fields: Extract<LinkedFields, { ok: true }>,
): void {
  if (fields.name !== undefined) post.name = fields.name;
  if (fields.description !== undefined) post.description = fields.description;
  post.status = scaleBackStatus(user, fields.status);
  post.image = fields.image === undefined ? undefined : attachment(state, fields.image);
  Object.assign(post.details, fields.details);
  if (post.type === 'venue') {
    post.showMap = fields.showMap ?? true;
    post.showMapLink = fields.showMapLink ?? true;
    if (!fields.details.stateprovince) {
      const { state: region, province, country } = fields.details;
      post.details.stateprovince =
        region && (!country || country === 'US' || country === 'United States') ? region : province || '';
    }
  }
  post.modified = state.now();
}
