/** Event categories (`/categories`, taxonomy `tribe_events_cat`) and tags (`/tags`, WordPress's `post_tag`). */
import { CALENDAR_ACTIONS } from './errors';
import { type CalendarPage, type CalendarTerm, pageSchema, TermSchema } from './schemas';
import { type CalendarSession, definedOnly } from './session';

/** Filters of `GET /categories` and `GET /tags` (`parent` is for categories only). */
export interface TermListQuery {
  page?: number;
  /** At most 50. */
  per_page?: number;
  search?: string;
  exclude?: readonly number[];
  include?: readonly number[];
  order?: 'asc' | 'desc';
  /** A term attribute: `name`, `slug`, `count`, `id`… */
  orderby?: string;
  /** Default true on the site: terms without events are hidden. */
  hide_empty?: boolean;
  parent?: number;
  /** Terms of this event. */
  event?: number;
  post?: number;
  slug?: string;
}

/** Fields of a term (`name` required on create; `parent` for categories only). */
export interface TermFields {
  name?: string | undefined;
  description?: string | undefined;
  slug?: string | undefined;
  parent?: number | undefined;
}

/** One taxonomy of the calendar. */
export class TermsApi {
  constructor(
    private readonly session: CalendarSession,
    private readonly collection: 'categories' | 'tags',
  ) {}

  private get singular(): string {
    return this.collection === 'categories' ? 'category' : 'tag';
  }

  /** One page (public). */
  list(query: TermListQuery = {}): Promise<CalendarPage<CalendarTerm>> {
    const { per_page, hide_empty, ...rest } = query;
    return this.session.page(
      {
        method: 'GET',
        path: `/${this.collection}`,
        route: `/${this.collection}`,
        schema: pageSchema(this.collection, TermSchema),
        action: CALENDAR_ACTIONS[this.collection].list,
        subject: { kind: this.collection },
        query: {
          ...rest,
          per_page: per_page === undefined ? undefined : Math.min(Math.max(1, per_page), 50),
          hide_empty: hide_empty === undefined ? undefined : hide_empty ? 1 : 0,
        },
      },
      query.page ?? 1,
    );
  }

  /** One by id. */
  get(id: number): Promise<CalendarTerm> {
    return this.session.call({
      method: 'GET',
      path: `/${this.collection}/${id}`,
      route: `/${this.collection}/{id}`,
      schema: TermSchema,
      action: CALENDAR_ACTIONS[this.collection].read,
      subject: { kind: this.singular, ref: id },
    });
  }

  /** Creates one. */
  create(fields: TermFields & { name: string }): Promise<CalendarTerm> {
    return this.session.call({
      method: 'POST',
      path: `/${this.collection}`,
      route: `/${this.collection}`,
      schema: TermSchema,
      action: CALENDAR_ACTIONS[this.collection].create,
      subject: { kind: this.singular },
      auth: true,
      body: definedOnly({ ...fields }),
    });
  }

  /** Changes the given fields. */
  update(id: number, fields: TermFields): Promise<CalendarTerm> {
    return this.session.call({
      method: 'POST',
      path: `/${this.collection}/${id}`,
      route: `/${this.collection}/{id}`,
      schema: TermSchema,
      action: CALENDAR_ACTIONS[this.collection].update,
      subject: { kind: this.singular, ref: id },
      auth: true,
      body: definedOnly({ ...fields }),
    });
  }

  /** Deletes one for good (terms have no trash) and returns it as it was. */
  delete(id: number): Promise<CalendarTerm> {
    return this.session.call({
      method: 'DELETE',
      path: `/${this.collection}/${id}`,
      route: `/${this.collection}/{id}`,
      schema: TermSchema,
      action: CALENDAR_ACTIONS[this.collection].delete,
      subject: { kind: this.singular, ref: id },
      auth: true,
    });
  }
}
