/**
 * `/events` routes: list (public; editors also see drafts), single by id or slug, create (201),
 * update (POST/PUT/PATCH), and DELETE, which moves to the trash (a second one is `410`).
 */
import { Hono } from 'hono';
import { readEventChanges } from './event-fields';
import { queryEvents } from './event-query';
import { answerPage, readPaging } from './list';
import { renderEvent, type Urls } from './render';
import { type CalendarState, capsOf, type EventPost, newEventPost, type WpUser } from './state';
import {
  type CalendarEnv,
  forbidden,
  invalidJson,
  invalidParams,
  missingParams,
  requestParams,
  type WpContext,
  wpError,
} from './wp';

/**
 * Resolves `:id` or `by-slug/:slug` to an event, or answers the plugin's error. `update`: the
 * by-slug update route validates `slug` only as a string (EDIT_args merges CREATE_args over
 * READ_args), so an unknown slug reaches `update()` as id 0: `404 rest-event-not-found`.
 */
function findEvent(c: WpContext, state: CalendarState, update = false): EventPost | Response {
  const id = c.req.param('id');
  const slug = c.req.param('slug');
  if (id !== undefined) {
    const post = state.posts.get(Number(id));
    if (!post) return wpError(c, 'rest-event-not-found', `Event with ID ${id} does not exist.`, 404);
    if (post.type !== 'event')
      return wpError(c, 'rest-invalid-event-id', `The post with ID ${id} is not an event.`, 400);
    return post;
  }
  // `READ_args` of Single_Event_Slug validate the slug with `is_event_slug` (get_page_by_path): a
  // slug no event has — also the old slug of a trashed event, renamed `<slug>__trashed` by
  // WordPress — is `400 rest_invalid_param` (the-events-calendar 6.17.2,
  // src/Tribe/REST/V1/Endpoints/Single_Event_Slug.php, src/Tribe/Validator/Base.php).
  const event = state.postBySlug('event', slug ?? '');
  if (!event && update) return wpError(c, 'rest-event-not-found', 'Event with ID 0 does not exist.', 404);
  if (!event) return invalidParams(c, ['slug']);
  return event;
}

function canEdit(user: WpUser | undefined, event: EventPost): boolean {
  const caps = capsOf(user);
  return caps.editPosts && (caps.editOthersPosts || event.author === user?.id);
}

function canRead(user: WpUser | undefined, event: EventPost): boolean {
  if (event.status === 'publish') return true;
  const caps = capsOf(user);
  return caps.readPrivate || (caps.editPosts && event.author === user?.id);
}

/** The events routes, mounted at `/events`. */
export function createEventsRoutes(state: CalendarState, urls: Urls): Hono<CalendarEnv> {
  const app = new Hono<CalendarEnv>();

  app.get('/', async (c) => {
    const params = (await requestParams(c)) ?? {};
    const paging = readPaging(c, params, state.site.perPage);
    if (paging instanceof Response) return paging;
    const result = queryEvents(state, c.get('user'), params);
    if (!result.ok) {
      if (result.code === 'rest_invalid_param') return invalidParams(c, result.params);
      return wpError(c, result.code, result.message ?? 'Invalid request.', 400);
    }
    const user = c.get('user');
    const items = result.events.map((e) =>
      renderEvent(state, urls, e, { protectedView: e.password !== undefined && !canEdit(user, e) }),
    );
    return answerPage(c, items, {
      key: 'events',
      collectionUrl: `${urls.api}/events`,
      query: result.query,
      ...paging,
      notFoundCode: 'event-archive-page-not-found',
      notFoundMessage: 'The requested event archive page does not exist',
      headerPrefix: 'X-TEC',
    });
  });

  app.post('/', async (c) => {
    const user = c.get('user');
    if (!capsOf(user).editPosts) return forbidden(c);
    const params = await requestParams(c);
    if (!params) return invalidJson(c);
    const missing = ['title', 'start_date', 'end_date'].filter(
      (key) => params[key] === undefined || params[key] === null || params[key] === '',
    );
    if (missing.length > 0) return missingParams(c, missing);
    const changes = readEventChanges(state, user, params, undefined);
    if (!changes.ok) return changeError(c, changes);
    const event = newEventPost(state, { status: 'draft', author: user?.id ?? 0 });
    changes.apply(event);
    state.posts.set(event.id, event);
    return c.json(renderEvent(state, urls, event, { single: true }), 201);
  });

  const single = async (c: WpContext) => {
    const found = findEvent(c, state);
    if (found instanceof Response) return found;
    const user = c.get('user');
    if (found.status === 'trash') {
      return wpError(
        c,
        'event-no-longer-available',
        `The event with ID ${found.id} is no longer available.`,
        403,
      );
    }
    if (!canRead(user, found)) {
      return wpError(c, 'event-not-accessible', 'The requested event is not accessible', 403);
    }
    const params = (await requestParams(c)) ?? {};
    if (found.password !== undefined && !canEdit(user, found) && params.password !== found.password) {
      return wpError(
        c,
        'event-password-protected',
        `The event with ID ${found.id} is password protected.`,
        403,
      );
    }
    return c.json(renderEvent(state, urls, found, { single: true }));
  };

  const update = async (c: WpContext) => {
    const user = c.get('user');
    if (!capsOf(user).editPosts) return forbidden(c);
    const found = findEvent(c, state, true);
    if (found instanceof Response) return found;
    if (!canEdit(user, found)) return forbidden(c);
    const params = await requestParams(c);
    if (!params) return invalidJson(c);
    const changes = readEventChanges(state, user, params, found);
    if (!changes.ok) return changeError(c, changes);
    changes.apply(found);
    return c.json(renderEvent(state, urls, found, { single: true }));
  };

  const remove = async (c: WpContext) => {
    const user = c.get('user');
    if (!capsOf(user).deletePosts) return forbidden(c);
    const found = findEvent(c, state);
    if (found instanceof Response) return found;
    if (!canEdit(user, found)) return forbidden(c);
    if (found.status === 'trash') {
      return wpError(c, 'event-is-in-trash', 'The event is already trashed', 410);
    }
    found.trashedFrom = found.status;
    found.status = 'trash';
    found.slug = `${found.slug}__trashed`;
    found.modified = state.now();
    return c.json(renderEvent(state, urls, found, { single: true }));
  };

  for (const path of ['/:id{[0-9]+}', '/by-slug/:slug{[^/]+}']) {
    app.get(path, single);
    app.post(path, update);
    app.put(path, update);
    app.patch(path, update);
    app.delete(path, remove);
  }
  return app;
}

/** The 400 for fields that cannot be saved. */
export function changeError(
  c: WpContext,
  changes: { code: string; params: string[]; messages?: Record<string, string> },
): Response {
  switch (changes.code) {
    case 'invalid-linked-post-id':
      return wpError(c, changes.code, 'The provided linked post ID is not valid', 400);
    case 'could-not-create-venue':
      return wpError(c, changes.code, 'The venue could not be created from the provided data', 400);
    case 'could-not-create-organizer':
      return wpError(c, changes.code, 'The organizer could not be created from the provided data', 400);
    default:
      return invalidParams(c, changes.params, changes.messages);
  }
}
