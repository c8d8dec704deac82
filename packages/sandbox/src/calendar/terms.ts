/**
 * `/categories` (taxonomy `tribe_events_cat`) and `/tags` (`post_tag`): list (public, terms without
 * events hidden unless `hide_empty=0`; `total`/`total_pages` copied from WordPress's headers, so sent
 * as strings), single, create (`400 term_exists` for a duplicate name), update, and DELETE, which
 * removes the term for good and returns it.
 *
 * Checked against the-events-calendar 6.17.2 (`src/Tribe/REST/V1/Endpoints/Single_Category.php`,
 * `Single_Tag.php`, `Term_Single_Base.php`), tribe-common 6.12.2 (`src/Tribe/Validator/Base.php`)
 * and WordPress core (`wp-includes/rest-api/endpoints/class-wp-rest-terms-controller.php`,
 * `wp-includes/taxonomy.php` `wp_update_term()`); specs/calendar/emulator-audit.md lists each rule.
 */
import { Hono } from 'hono';
import { answerPage, readPaging } from './list';
import { renderTerm, type Urls } from './render';
import { type CalendarState, capsOf, slugify, type Taxonomy, type Term } from './state';
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

  // The single routes' `id` is checked by READ_args' validate_callback (`is_event_category` /
  // `is_post_tag`, i.e. `term_exists( $id, $taxonomy )`) before the terms controller runs: an id
  // that is not a term of this taxonomy is `400 rest_invalid_param`, never core's 404.
  const find = (c: WpContext): Term | Response => {
    const term = state.terms.get(Number(c.req.param('id')));
    return term && term.taxonomy === taxonomy ? term : invalidParams(c, ['id']);
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

  /**
   * The CREATE_args checks (EDIT_args are the same, unrequired): `name`, `description` and `slug`
   * use tribe-common's `is_string` (`! empty( $value ) && is_string( $value )`: an empty string, or
   * PHP's empty `"0"`, is refused); a category's `parent` uses `is_event_category` (an existing
   * category: `0` is refused too). A tag has no `parent` argument, but core's terms controller
   * answers any `parent` on a flat taxonomy with `400 rest_taxonomy_not_hierarchical`
   * (`create_item()`, `update_item()`).
   */
  const fieldsOf = (params: Record<string, unknown>) => {
    const bad: string[] = [];
    for (const key of ['name', 'description', 'slug']) {
      const value = params[key];
      if (value !== undefined && (typeof value !== 'string' || value === '' || value === '0')) bad.push(key);
    }
    if (typeof params.name === 'string' && params.name.trim() === '' && !bad.includes('name'))
      bad.push('name');
    const parent = params.parent === undefined ? undefined : Number(params.parent);
    if (parent !== undefined && taxonomy === 'tribe_events_cat') {
      if (state.terms.get(parent)?.taxonomy !== taxonomy) bad.push('parent');
    }
    return { bad, parent };
  };

  /** Core's refusal of `parent` on tags (`class-wp-rest-terms-controller.php`). */
  const notHierarchical = (c: WpContext, params: Record<string, unknown>) =>
    taxonomy !== 'tribe_events_cat' && params.parent !== undefined
      ? wpError(
          c,
          'rest_taxonomy_not_hierarchical',
          'Cannot set parent term, taxonomy is not hierarchical.',
          400,
        )
      : undefined;

  app.post('/', async (c) => {
    if (!canManage(c)) return forbidden(c);
    const params = await requestParams(c);
    if (!params) return invalidJson(c);
    if (params.name === undefined) return missingParams(c, ['name']);
    const { bad, parent } = fieldsOf(params);
    if (bad.length > 0) return invalidParams(c, bad);
    const flat = notHierarchical(c, params);
    if (flat) return flat;
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
    const flat = notHierarchical(c, params);
    if (flat) return flat;
    // wp_update_term(): a slug given explicitly that another term of the taxonomy uses is refused
    // (`duplicate_term_slug`, a WP_Error without a status: 500, `data: null`) unless the parent
    // changes too, in which case it is made unique; a rename alone keeps the slug.
    if (typeof params.slug === 'string') {
      const wanted = slugify(params.slug);
      const taken = state.termsOf(taxonomy).some((t) => t.slug === wanted && t.id !== found.id);
      const parentChanged = parent !== undefined && parent !== found.parent;
      if (taken && !parentChanged) {
        return c.json(
          {
            code: 'duplicate_term_slug',
            message: `The slug &#8220;${wanted}&#8221; is already in use by another term.`,
            data: null,
          },
          500,
        );
      }
      found.slug = state.uniqueTermSlug(taxonomy, params.slug, found.id);
    }
    if (typeof params.name === 'string') found.name = params.name.trim();
    if (typeof params.description === 'string') found.description = params.description;
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
