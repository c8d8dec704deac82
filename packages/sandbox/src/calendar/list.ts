/**
 * The list envelope of every archive route: `{<key>: [...], rest_url, next_rest_url?,
 * previous_rest_url?, total, total_pages}`, `per_page` clamped to 50, and an empty page past the
 * first answered `404 <kind>-archive-page-not-found` (page 1 with no matches is an empty 200).
 */
import type { Context } from 'hono';
import { invalidParams, positiveInt, wpError } from './wp';

/** The largest page the plugin serves. */
export const MAX_PER_PAGE = 50;

/** Paging read from a request, or the 400 to answer. */
export function readPaging(
  c: Context,
  params: Record<string, unknown>,
  defaultPerPage: number,
): { page: number; perPage: number } | Response {
  const bad: string[] = [];
  const page = params.page === undefined ? 1 : positiveInt(params.page);
  if (page === undefined) bad.push('page');
  const asked = params.per_page === undefined ? defaultPerPage : positiveInt(params.per_page);
  if (asked === undefined) bad.push('per_page');
  if (bad.length > 0) return invalidParams(c, bad);
  return { page: page as number, perPage: Math.min(asked as number, MAX_PER_PAGE) };
}

/** What a page answer needs. */
export interface PageOptions {
  /** Envelope key: `events`, `venues`… */
  key: string;
  /** `…/tribe/events/v1/events` */
  collectionUrl: string;
  /** The effective query, echoed into `rest_url` (defaults included). */
  query: Record<string, string>;
  page: number;
  perPage: number;
  /** Code of the 404 for a page past the last (undefined: answer an empty page). */
  notFoundCode?: string;
  notFoundMessage?: string;
  /** Also send `X-WP-Total`-style headers under this prefix (`X-TEC`, `X-WP`). */
  headerPrefix: 'X-TEC' | 'X-WP';
}

/** Answers one page of `all` (already filtered and sorted). */
export function answerPage<T>(c: Context, all: readonly T[], options: PageOptions): Response {
  const { page, perPage } = options;
  const items = all.slice((page - 1) * perPage, page * perPage);
  if (items.length === 0 && page > 1 && options.notFoundCode) {
    return wpError(
      c,
      options.notFoundCode,
      options.notFoundMessage ?? 'The requested page does not exist',
      404,
    );
  }
  const total = all.length;
  const totalPages = Math.ceil(total / perPage);
  const url = (n: number) => {
    const search = new URLSearchParams({ ...options.query, per_page: String(perPage), page: String(n) });
    return `${options.collectionUrl}/?${search.toString()}`;
  };
  const body: Record<string, unknown> = { [options.key]: items, rest_url: url(page) };
  if (page < totalPages) body.next_rest_url = url(page + 1);
  if (page > 1 && page - 1 <= Math.max(totalPages, 1)) body.previous_rest_url = url(page - 1);
  body.total = total;
  body.total_pages = totalPages;
  c.header(`${options.headerPrefix}-Total`, String(total));
  c.header(`${options.headerPrefix}-TotalPages`, String(totalPages));
  return c.json(body);
}
