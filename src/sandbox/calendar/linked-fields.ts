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
import { POST_STATUSES, scaleBackStatus, truthy } from './wp';

/** The kind of linked post. */
export type LinkedType = 'venue' | 'organizer';

/** Parsed fields, or the names of the parameters that are invalid. */
export type LinkedFields =
  | {
      ok: true;
      name?: string;
      description?: string;
      status?: string;
      details: Record<string, string>;
      showMap?: boolean;
      showMapLink?: boolean;
    }
  | { ok: false; invalid: string[] };

const URLISH = /^https?:\/\/[^\s]+$/i;
const EMAILISH = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Reads the fields of a venue (`venue` = name) or organizer (`organizer` = name). */
export function readLinkedFields(type: LinkedType, params: Record<string, unknown>): LinkedFields {
  const invalid: string[] = [];
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
    ...(name !== undefined ? { name: name.trim() } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(status !== undefined ? { status } : {}),
    details,
    ...(params.show_map !== undefined ? { showMap: truthy(params.show_map) } : {}),
    ...(params.show_map_link !== undefined ? { showMapLink: truthy(params.show_map_link) } : {}),
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
  };
  const post: VenuePost | OrganizerPost =
    type === 'venue'
      ? { ...base, type: 'venue', showMap: fields.showMap ?? true, showMapLink: fields.showMapLink ?? true }
      : { ...base, type: 'organizer' };
  state.posts.set(post.id, post);
  return post;
}

/** Applies fields to an existing venue or organizer. */
export function updateLinked(
  state: CalendarState,
  user: WpUser | undefined,
  post: VenuePost | OrganizerPost,
  fields: Extract<LinkedFields, { ok: true }>,
): void {
  if (fields.name !== undefined) post.name = fields.name;
  if (fields.description !== undefined) post.description = fields.description;
  if (fields.status !== undefined) post.status = scaleBackStatus(user, fields.status);
  Object.assign(post.details, fields.details);
  if (post.type === 'venue') {
    if (fields.showMap !== undefined) post.showMap = fields.showMap;
    if (fields.showMapLink !== undefined) post.showMapLink = fields.showMapLink;
  }
  post.modified = state.now();
}
