/**
 * `/categories` (taxonomy `tribe_events_cat`) and `/tags` (`post_tag`): list (public, terms without
 * events hidden unless `hide_empty=0`; `total`/`total_pages` copied from WordPress's headers, so sent
 * as strings), single (`404 rest_term_invalid`), create (`400 term_exists` for a duplicate name),
 * update, and DELETE, which removes the term for good and returns it.
 */
import { Hono } from 'hono';
import { answerPage, readPaging } from './list';
import { renderTerm, type Urls } from './render';
import { type CalendarState, capsOf, type Taxonomy, type Term } from './state';
import {
  type CalendarEnv,
  forbidden,
  invalidJson,
  invalidParams,
  listParam,
  missingParams,
  positiveInt,
  requestParams,
  truthy,
  type WpContext,
  wpError,
} from './wp';

/** The routes of one taxonomy. */
export function createTermRoutes(state: CalendarState, urls: Urls, taxonomy: Taxonomy): Hono<CalendarEnv> {
  const app = new Hono<CalendarEnv>();
  const collection = taxonomy === 'tribe_events_cat' ? 'categories' : 'tags';

  const find = (c: WpContext): Term | Response => {
    const term = state.terms.get(Number(c.req.param('id')));
    return term && term.taxonomy === taxonomy
      ? term
      : wpError(c, 'rest_term_invalid', 'Term does not exist.', 404);
  };

  app.get('/', async (c) => {
    const params = (await requestParams(c)) ?? {};
    const paging = readPaging(c, params, state.site.perPage);
    if (paging instanceof Response) return paging;
    const bad: string[] = [];
    const include = listParam(params.include).map((v) => positiveInt(v));
    const exclude = listParam(params.exclude).map((v) => positiveInt(v));
    if (include.includes(undefined)) bad.push('include');
    if (exclude.includes(undefined)) bad.push('exclude');
    const order = params.order === undefined ? 'asc' : String(params.order).toLowerCase();
    if (!['asc', 'desc'].includes(order)) bad.push('order');
    const orderby = params.orderby === undefined ? 'name' : String(params.orderby);
    if (!['name', 'slug', 'count', 'id', 'term_id', 'description', 'include'].includes(orderby))
      bad.push('orderby');
    const eventParam = params.event ?? params.post;
    const event = eventParam === undefined ? undefined : state.post('event', positiveInt(eventParam) ?? -1);
    if (eventParam !== undefined && !event) {
      return wpError(c, 'rest-invalid-event-id', 'The event ID is not valid.', 400);
    }
    if (bad.length > 0) return invalidParams(c, bad);
    const hideEmpty = params.hide_empty === undefined ? true : truthy(params.hide_empty);
    const search = typeof params.search === 'string' ? params.search.toLowerCase() : '';
    const parent = params.parent === undefined ? undefined : Number(params.parent);
    const ofEvent = event ? (taxonomy === 'tribe_events_cat' ? event.categories : event.tags) : undefined;
    const key = (t: Term): string | number =>
      orderby === 'count'
        ? state.termCount(t)
        : orderby === 'id' || orderby === 'term_id'
          ? t.id
          : orderby === 'slug'
            ? t.slug
            : orderby === 'description'
              ? t.description
              : t.name.toLowerCase();
    const terms = state
      .termsOf(taxonomy)
      .filter((t) => !hideEmpty || state.termCount(t) > 0)
      .filter((t) => !search || `${t.name} ${t.slug}`.toLowerCase().includes(search))
      .filter((t) => include.length === 0 || include.includes(t.id))
      .filter((t) => !exclude.includes(t.id))
      .filter((t) => parent === undefined || t.parent === parent)
      .filter((t) => !ofEvent || ofEvent.includes(t.id))
      .filter((t) => params.slug === undefined || listParam(params.slug).includes(t.slug))
      .sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        const cmp = x < y ? -1 : x > y ? 1 : a.id - b.id;
        return order === 'desc' ? -cmp : cmp;
      });
    const query: Record<string, string> = {};
    for (const name of [
      'search',
      'include',
      'exclude',
      'order',
      'orderby',
      'hide_empty',
      'parent',
      'post',
      'event',
      'slug',
    ]) {
      if (params[name] !== undefined) query[name] = listParam(params[name]).join(',');
    }
    const response = answerPage(
      c,
      terms.map((t) => renderTerm(state, urls, t)),
      { key: collection, collectionUrl: `${urls.api}/${collection}`, query, ...paging, headerPrefix: 'X-WP' },
    );
    // `total` and `total_pages` are copied from the X-WP-* headers: strings.
    const body = (await response.json()) as Record<string, unknown>;
    return c.json({ ...body, total: String(body.total), total_pages: String(body.total_pages) });
  });

  const canManage = (c: WpContext) => {
    const caps = capsOf(c.get('user'));
    return caps.editPosts && caps.manageTerms;
  };

  const fieldsOf = (params: Record<string, unknown>) => {
    const bad: string[] = [];
    for (const key of ['name', 'description', 'slug']) {
      if (params[key] !== undefined && typeof params[key] !== 'string') bad.push(key);
    }
    if (params.name !== undefined && String(params.name).trim() === '') bad.push('name');
    const parent = params.parent === undefined ? undefined : Number(params.parent);
    if (parent !== undefined) {
      const parentTerm = state.terms.get(parent);
      if (taxonomy !== 'tribe_events_cat' || (parent !== 0 && parentTerm?.taxonomy !== taxonomy))
        bad.push('parent');
    }
    return { bad, parent };
  };

  app.post('/', async (c) => {
    if (!canManage(c)) return forbidden(c);
    const params = await requestParams(c);
    if (!params) return invalidJson(c);
    if (params.name === undefined) return missingParams(c, ['name']);
    const { bad, parent } = fieldsOf(params);
    if (bad.length > 0) return invalidParams(c, bad);
    const name = String(params.name).trim();
    const existing = state.termsOf(taxonomy).find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (existing) {
      return wpError(
        c,
        'term_exists',
        'A term with the name provided already exists in this taxonomy.',
        400,
        {
          term_id: existing.id,
        },
      );
    }
    const term: Term = {
      id: state.newTermId(),
      taxonomy,
      name,
      slug: state.uniqueTermSlug(
        taxonomy,
        typeof params.slug === 'string' && params.slug ? params.slug : name,
      ),
      description: typeof params.description === 'string' ? params.description : '',
      parent: parent ?? 0,
    };
    state.terms.set(term.id, term);
    return c.json(renderTerm(state, urls, term), 201);
  });

  const update = async (c: WpContext) => {
    if (!canManage(c)) return forbidden(c);
    const found = find(c);
    if (found instanceof Response) return found;
    const params = await requestParams(c);
    if (!params) return invalidJson(c);
    const { bad, parent } = fieldsOf(params);
    if (bad.length > 0) return invalidParams(c, bad);
    if (typeof params.name === 'string') found.name = params.name.trim();
    if (typeof params.description === 'string') found.description = params.description;
    if (typeof params.slug === 'string') found.slug = state.uniqueTermSlug(taxonomy, params.slug, found.id);
    if (parent !== undefined) found.parent = parent;
    return c.json(renderTerm(state, urls, found));
  };

  app.get('/:id{[0-9]+}', (c) => {
    const found = find(c);
    return found instanceof Response ? found : c.json(renderTerm(state, urls, found));
  });
  app.post('/:id{[0-9]+}', update);
  app.put('/:id{[0-9]+}', update);
  app.patch('/:id{[0-9]+}', update);
  app.delete('/:id{[0-9]+}', (c) => {
    if (!canManage(c)) return forbidden(c);
    const found = find(c);
    if (found instanceof Response) return found;
    const body = renderTerm(state, urls, found);
    state.terms.delete(found.id);
    const key = taxonomy === 'tribe_events_cat' ? 'categories' : 'tags';
    for (const event of state.postsOf('event')) event[key] = event[key].filter((id) => id !== found.id);
    return c.json(body);
  });
  return app;
}
