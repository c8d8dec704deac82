/**
 * One user's connection to the calendar, shared by the resource APIs of a {@link CalendarClient}:
 * builds `{rest_root}/{namespace}/…` paths, adds Basic auth (an application password) to the calls
 * that need it, sends writes form- or JSON-encoded as WordPress accepts, and turns error bodies into
 * the errors users see (errors.ts).
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { inEnglish, NotFoundError, PermissionDenied, UpstreamError, withWords } from '../../core/errors';
import { readJson } from '../../core/json';
import { type MessageKey, type Translator, translator } from '../../i18n/translate';
import type { HttpClient, RequestOptions } from '../http';
import {
  applicationPasswordLink,
  calendarError,
  type ErrorSubject,
  errorCode,
  readCalendarError,
} from './errors';
import type { CalendarPage } from './schemas';

/** A WordPress user name and one of its application passwords. Secret: never log or show it. */
export interface CalendarCredentials {
  user: string;
  appPassword: string;
}

/** A query string value: lists are sent comma-separated, as the plugin reads them. */
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

/** One call. */
export interface CalendarCall<T> {
  method: Dispatcher.HttpMethod;
  /** Path under the namespace, e.g. `/events/42` (segments already encoded). */
  path: string;
  /** The same path with placeholders, for metrics (`/events/{id}`). */
  route: string;
  schema: z.ZodType<T>;
  /** What the call does, in words, for permission errors (`create events`). */
  action: MessageKey;
  /** What it acts on, for not-found and trash messages. */
  subject: ErrorSubject;
  /** True for writes: they need credentials. */
  auth?: boolean;
  query?: Record<string, QueryValue>;
  body?: Record<string, unknown>;
}

/**
 * Told when a read went without the refused application password: the notice in English, and in
 * the words of the catalog for the reader's language.
 */
export type RefusedReadListener = (notice: string, inWords?: (say: Translator) => string) => void;

/** The calendar's connection for one set of credentials (or none: public reads only). */
export class CalendarSession {
  constructor(
    private readonly http: HttpClient,
    /** Path of the namespace under the REST root, e.g. `/tribe/events/v1`. */
    private readonly namespacePath: string,
    /** Public address of the site, for the application-password link in messages. */
    readonly siteUrl: string,
    private readonly credentials: CalendarCredentials | undefined,
    /**
     * Told when the site refused the credentials and a read was made without them. Without it, a
     * refused password fails reads too (as when a new password is checked before it is stored).
     */
    private readonly onRefusedRead?: RefusedReadListener,
  ) {}

  /** Set once the site refused the credentials: later reads of this session go without them. */
  private refused = false;

  /** The WordPress user the calls are made as, if any. */
  get user(): string | undefined {
    return this.credentials?.user;
  }

  /** Makes a call under the namespace and returns the validated answer. */
  async call<T>(call: CalendarCall<T>): Promise<T> {
    return this.send({
      ...call,
      path: this.namespacePath + call.path,
      route: this.namespacePath + call.route,
    });
  }

  /** Makes a call at a path of the REST root itself (the WordPress index `/`). */
  async callRoot<T>(call: CalendarCall<T>): Promise<T> {
    return this.send(call);
  }

  /** Reads one page of a list; `page` is echoed into the result. */
  async page<T>(call: CalendarCall<Omit<CalendarPage<T>, 'page'>>, page: number): Promise<CalendarPage<T>> {
    const result = await this.call(call);
    return { ...result, page };
  }

  private async send<T>(call: CalendarCall<T>): Promise<T> {
    if (call.auth && !this.credentials) {
      const link = applicationPasswordLink(this.siteUrl);
      throw PermissionDenied.inWords((say) => ({
        message: say.t('calendar-api-no-credentials', say.t(call.action)),
        hint: say.t('calendar-api-needs-login-hint', link),
      }));
    }
    const options: RequestOptions = { route: call.route };
    const query = encodeQuery(call.query);
    if (query) options.query = query;
    if (call.body !== undefined) options.body = call.body;
    // A read of public data goes without credentials the site already refused (see below).
    // Only where someone is told (a command's view): checking a new password must see the refusal.
    const publicRead = call.method === 'GET' && !call.auth && this.onRefusedRead !== undefined;
    if (this.credentials && !(publicRead && this.refused)) {
      const { user, appPassword } = this.credentials;
      // WordPress shows application passwords in groups of four; the spaces are optional.
      const basic = Buffer.from(`${user}:${appPassword.replace(/\s+/g, '')}`).toString('base64');
      options.headers = { authorization: `Basic ${basic}` };
    }
    let response = await this.http.raw(call.method, call.path, options);
    if (response.status === 401 && publicRead && this.credentials && !this.refused) {
      // WordPress turns away every request carrying a refused application password, even reads of
      // public events; those are read again without it, and the user is told to replace it.
      if (errorCode(readJson(response.text)) !== 'rest_forbidden') {
        this.refused = true;
        const { headers: _auth, ...anonymous } = options;
        response = await this.http.raw(call.method, call.path, anonymous);
        if (response.status < 400) {
          const notice = this.refusedNotice();
          this.onRefusedRead?.(notice(translator('en')), notice);
        }
      }
    }
    if (response.status >= 400) throw this.errorOf(response.status, response.text, call);
    const parsed = call.schema.safeParse(readJson(response.text));
    if (!parsed.success) {
      throw new UpstreamError('calendar', 502, (say) => ({
        message: say.t('calendar-api-unreadable-answer'),
        hint: say.t('calendar-api-unreadable-answer-hint'),
      }));
    }
    return parsed.data;
  }

  /** What the user is told when a read went without the refused password. */
  private refusedNotice(): (say: Translator) => string {
    const user = this.credentials?.user ?? '';
    const link = applicationPasswordLink(this.siteUrl);
    return (say) => say.t('calendar-api-password-refused-notice', user, link);
  }

  /** The error for an error answer: the WordPress code read, turned into what the user should see. */
  private errorOf(status: number, text: string, call: CalendarCall<unknown>): Error {
    const body = readJson(text);
    const code = errorCode(body);
    const generic = this.http.errorFor(status, text);
    const own = readCalendarError(status, body, call.subject);
    const message =
      own === undefined ? generic.message : typeof own === 'function' ? inEnglish(own).message : own;
    const said = (say: Translator) =>
      own === undefined
        ? (generic.words?.(say).message ?? generic.message)
        : typeof own === 'function'
          ? own(say).message
          : own;
    if (code === 'rest_invalid_param' && call.subject.ref !== undefined && invalidOnlyId(body)) {
      // The linked-post and term routes validate the id itself: a 400 there means "no such thing".
      return withWords(new NotFoundError(message, undefined, { cause: generic }), (say) => ({
        message: said(say),
      }));
    }
    const plain = withWords(new UpstreamError('calendar', status, message, generic.hint), (say) => ({
      message: said(say),
      hint: generic.words ? generic.words(say).hint : generic.hint,
    }));
    return calendarError(plain, code, {
      siteUrl: this.siteUrl,
      user: this.user,
      action: call.action,
      write: call.method !== 'GET',
    });
  }
}

/** True when a `rest_invalid_param` body names only the `id` or `slug` of the route. */
function invalidOnlyId(body: unknown): boolean {
  const params = (body as { data?: { params?: unknown } }).data?.params;
  const names = Array.isArray(params)
    ? params
    : params && typeof params === 'object'
      ? Object.keys(params)
      : [];
  return names.length > 0 && names.every((n) => n === 'id' || n === 'slug');
}

/** Query values as strings; lists comma-separated (the plugin splits CSV). */
function encodeQuery(query: Record<string, QueryValue> | undefined): RequestOptions['query'] | undefined {
  if (!query) return undefined;
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) out[key] = value.join(',');
    } else {
      out[key] = value as string | number | boolean;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `/events/42` for an id, `/events/by-slug/hack-night` for a slug. */
export function itemPath(collection: string, ref: number | string): { path: string; route: string } {
  const text = String(ref).trim();
  if (/^\d+$/.test(text)) return { path: `/${collection}/${text}`, route: `/${collection}/{id}` };
  return {
    path: `/${collection}/by-slug/${encodeURIComponent(text)}`,
    route: `/${collection}/by-slug/{slug}`,
  };
}

/** A copy of `value` without its `undefined` members: a request sends only the fields that were set. */
export function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
