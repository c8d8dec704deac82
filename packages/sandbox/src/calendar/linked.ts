/**
 * `/venues` and `/organizers`: list (public), single by id or slug (an id that is not one answers
 * `400 rest_invalid_param` — the route's `is_venue_id` check), create (201, de-duplicated), update,
 * and DELETE to the trash (`410 <kind>-is-in-trash` the second time).
 */
import { Hono } from 'hono';
import { createLinked, type LinkedType, readLinkedFields, updateLinked } from './linked-fields';
import { answerPage, readPaging } from './list';
import { renderOrganizer, renderVenue, type Urls } from './render';
import { type CalendarState, capsOf, type OrganizerPost, type VenuePost } from './state';
import {
  type CalendarEnv,
  forbidden,
  invalidJson,
  invalidParams,
  missingParams,
  positiveInt,
  requestParams,
  truthy,
  visibleStatuses,
  type WpContext,
  wpError,
} from './wp';

/** The routes of one linked post type, mounted at `/venues` or `/organizers`. */
export function createLinkedRoutes(state: CalendarState, urls: Urls, type: LinkedType): Hono<CalendarEnv> {
  const app = new Hono<CalendarEnv>();
  const collection = type === 'venue' ? 'venues' : 'organizers';
  const render = (post: VenuePost | OrganizerPost, single = false) =>
    post.type === 'venue'
      ? renderVenue(state, urls, post, single)
      : renderOrganizer(state, urls, post, single);

  const find = (c: WpContext): VenuePost | OrganizerPost | Response => {
    const id = c.req.param('id');
    if (id !== undefined) return state.post(type, Number(id)) ?? invalidParams(c, ['id']);
    const slug = c.req.param('slug') ?? '';
    return state.postBySlug(type, slug) ?? invalidParams(c, ['slug']);
  };

  app.get('/', async (c) => {
    const params = (await requestParams(c)) ?? {};
    const paging = readPaging(c, params, state.site.perPage);
    if (paging instanceof Response) return paging;
    const statuses = visibleStatuses(c.get('user'), params.status);
    if (statuses === 'invalid') return invalidParams(c, ['status']);
    if (params.search !== undefined && typeof params.search !== 'string') {
      return wpError(c, 'archive-bad-search-string', "The 'search' parameter must be a string", 400);
    }
    const search = typeof params.search === 'string' ? params.search.trim().toLowerCase() : '';
    const eventId = params.event === undefined ? undefined : positiveInt(params.event);
    if (params.event !== undefined && (eventId === undefined || !state.post('event', eventId))) {
      return wpError(c, 'rest-invalid-event-id', 'The event ID is not valid.', 400);
    }
    const events = state.postsOf('event').filter((e) => e.status !== 'trash');
    const key = type === 'venue' ? 'venues' : 'organizers';
    const used = (id: number, upcoming: boolean) =>
      events.some((e) => e[key].includes(id) && (!upcoming || e.endUtc >= state.now()));
    const posts = state
      .postsOf(type)
      .filter((p) => statuses.includes(p.status))
      .filter(
        (p) =>
          !search ||
          [p.name, p.description, ...Object.values(p.details)].join('\n').toLowerCase().includes(search),
      )
      .filter((p) => eventId === undefined || state.post('event', eventId)?.[key].includes(p.id))
      .filter((p) => params.has_events === undefined || used(p.id, false) === truthy(params.has_events))
      .filter((p) => !truthy(params.only_with_upcoming) || used(p.id, true))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    const query: Record<string, string> = {};
    for (const name of ['search', 'event', 'has_events', 'only_with_upcoming', 'status']) {
      if (params[name] !== undefined) query[name] = String(params[name]);
    }
    return answerPage(
      c,
      posts.map((p) => render(p)),
      {
        key: collection,
        collectionUrl: `${urls.api}/${collection}`,
        query,
        ...paging,
        notFoundCode: `${type}-archive-page-not-found`,
        notFoundMessage: `The requested ${type} archive page does not exist`,
        headerPrefix: 'X-TEC',
      },
    );
  });

  app.post('/', async (c) => {
    const user = c.get('user');
    if (!capsOf(user).editPosts) return forbidden(c);
    const params = await requestParams(c);
    if (!params) return invalidJson(c);
    if (params[type] === undefined || params[type] === null) return missingParams(c, [type]);
    const fields = readLinkedFields(type, params);
    if (!fields.ok) return invalidParams(c, fields.invalid, fields.messages);
    const created = createLinked(state, user, type, fields);
    if (!created) {
      return wpError(
        c,
        `could-not-create-${type}`,
        `The ${type} could not be created from the provided data`,
        400,
      );
    }
    return c.json(render(created, true), 201);
  });

  const single = (c: WpContext) => {
    const found = find(c);
    if (found instanceof Response) return found;
    if (found.status !== 'publish' && !capsOf(c.get('user')).readPrivate) {
      return wpError(c, `${type}-not-accessible`, `The requested ${type} is not accessible`, 403);
    }
    return c.json(render(found, true));
  };

  const update = async (c: WpContext) => {
    const user = c.get('user');
    if (!capsOf(user).editPosts) return forbidden(c);
    const found = find(c);
    if (found instanceof Response) return found;
    const caps = capsOf(user);
    if (!caps.editOthersPosts && found.author !== user?.id) return forbidden(c);
    const params = await requestParams(c);
    if (!params) return invalidJson(c);
    if (c.req.param('slug') !== undefined && params.slug === undefined) return missingParams(c, ['slug']);
    const fields = readLinkedFields(type, params);
    if (!fields.ok) return invalidParams(c, fields.invalid, fields.messages);
    updateLinked(state, user, found, fields);
    return c.json(render(found, true));
  };

  const remove = (c: WpContext) => {
    const user = c.get('user');
    const caps = capsOf(user);
    if (!caps.deletePosts) return forbidden(c);
    const found = find(c);
    if (found instanceof Response) return found;
    if (!caps.editOthersPosts && found.author !== user?.id) return forbidden(c);
    if (found.status === 'trash') {
      return wpError(c, `${type}-is-in-trash`, `The ${type} is already trashed`, 410);
    }
    found.trashedFrom = found.status;
    found.status = 'trash';
    found.modified = state.now();
    return c.json(render(found, true));
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
