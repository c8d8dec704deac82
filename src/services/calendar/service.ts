/**
 * The calendar for the whole process: one HTTP connection pool, the site's details (cached), and
 * a client per chat user with the right credentials. Until the accounts vault stores each user's
 * own application password, every user writes with the bot-wide one (`CALENDAR_USER` /
 * `CALENDAR_APP_PASSWORD`); the vault plugs in with {@link CalendarService.useCredentialSource}.
 */
import type { Config } from '../../config';
import type { ChatUser } from '../../core/command';
import { UsageError } from '../../core/errors';
import { HttpClient } from '../http';
import { CalendarClient } from './client';
import { readCalendarError } from './errors';
import type { CalendarSite } from './schemas';
import { type CalendarCredentials, CalendarSession, type RefusedReadListener } from './session';

/** The plugin's REST namespace (the seed's `calendar/events/v1` is an abbreviation of it). */
export const DEFAULT_NAMESPACE = 'tribe/events/v1';

/** Where a chat user's own calendar credentials come from (the accounts vault, later). */
export interface CalendarCredentialSource {
  /** The user's own credentials, or undefined to fall back to the bot-wide ones. */
  credentialsFor(user: ChatUser): Promise<CalendarCredentials | undefined>;
}

/** Options of a {@link CalendarService}. */
export interface CalendarServiceOptions {
  /**
   * The site's REST root: `https://example.org/wp-json` (pretty permalinks) or
   * `https://example.org/?rest_route=` (plain permalinks). Undefined: the calendar is not set up.
   */
  restRoot: string | undefined;
  /** Default {@link DEFAULT_NAMESPACE}. */
  namespace?: string | undefined;
  /** Bot-wide credentials every user writes with when they have none of their own. */
  credentials?: CalendarCredentials | undefined;
  /** Per-user credentials (the vault). */
  credentialSource?: CalendarCredentialSource | undefined;
  /** Per-request timeout in ms (default 15 000). */
  timeoutMs?: number;
  /** Retries of idempotent requests (default 2). */
  retries?: number;
  retryDelayMs?: number;
  /** How long the site's details are cached, in ms (default 10 minutes). */
  siteTtlMs?: number;
}

/** The calendar of this process. */
export class CalendarService {
  private readonly http: HttpClient | undefined;
  private readonly namespacePath: string;
  private credentialSource: CalendarCredentialSource | undefined;
  /** Shared by every {@link noticing} view of this service. */
  private readonly siteCache: { cached?: { site: CalendarSite; until: number } } = {};
  /** Where this view's clients report a refused password they read without (see {@link noticing}). */
  private onRefusedRead: RefusedReadListener | undefined;

  constructor(private readonly options: CalendarServiceOptions) {
    const namespace = (options.namespace ?? DEFAULT_NAMESPACE).replace(/^\/+|\/+$/g, '');
    this.namespacePath = `/${namespace}`;
    this.credentialSource = options.credentialSource;
    this.http = options.restRoot
      ? new HttpClient({
          service: 'calendar',
          baseUrl: options.restRoot,
          timeoutMs: options.timeoutMs ?? 15_000,
          retries: options.retries ?? 2,
          retryDelayMs: options.retryDelayMs ?? 250,
          readError: (status, body) => readCalendarError(status, body),
        })
      : undefined;
  }

  /** The calendar of the configuration: `CALENDAR_URL`, `CALENDAR_NAMESPACE`, the bot-wide credentials. */
  static fromConfig(config: Config): CalendarService {
    const credentials =
      config.CALENDAR_USER && config.CALENDAR_APP_PASSWORD
        ? { user: config.CALENDAR_USER, appPassword: config.CALENDAR_APP_PASSWORD }
        : undefined;
    return new CalendarService({
      restRoot: config.CALENDAR_URL,
      namespace: config.CALENDAR_NAMESPACE,
      credentials,
      timeoutMs: config.CALENDAR_TIMEOUT_MS,
    });
  }

  /**
   * The calendar of a running sandbox (`@deckhand/sandbox/calendar`), writing with the application
   * password it seeds, so the terminal user can create events at once.
   */
  static forSandbox(
    sandbox: { restRoot: string; namespace: string; credentials: CalendarCredentials },
    options: Pick<CalendarServiceOptions, 'timeoutMs' | 'retries' | 'retryDelayMs'> = {},
  ): CalendarService {
    return new CalendarService({
      restRoot: sandbox.restRoot,
      namespace: sandbox.namespace,
      credentials: sandbox.credentials,
      ...options,
    });
  }

  /** False when no calendar site is configured (`CALENDAR_URL`). */
  get configured(): boolean {
    return this.http !== undefined;
  }

  /** The site's public address, derived from its REST root. */
  get siteUrl(): string {
    return siteUrlOf(this.options.restRoot ?? '');
  }

  /** The WordPress user of the bot-wide credentials, if there are any. */
  get botUser(): string | undefined {
    return this.options.credentials?.user;
  }

  /** Lets the accounts vault supply each user's own credentials. */
  useCredentialSource(source: CalendarCredentialSource): void {
    this.credentialSource = source;
  }

  /** A client acting as `user`: their own credentials if they have some, else the bot-wide ones. */
  async forUser(user: ChatUser): Promise<CalendarClient> {
    const own = await this.credentialSource?.credentialsFor(user);
    return this.client(own ?? this.options.credentials);
  }

  /** A client without credentials: public reads only (what anonymous visitors see). */
  anonymous(): CalendarClient {
    return this.client(undefined);
  }

  /** A client with the given credentials. */
  withCredentials(credentials: CalendarCredentials): CalendarClient {
    return this.client(credentials);
  }

  /** The site's name, address and time zone; cached for a few minutes. */
  async site(): Promise<CalendarSite> {
    const now = Date.now();
    const cached = this.siteCache.cached;
    if (cached && cached.until > now) return cached.site;
    const site = await this.anonymous().site();
    this.siteCache.cached = { site, until: now + (this.options.siteTtlMs ?? 10 * 60_000) };
    return site;
  }

  /**
   * This service for one command: when the site refuses the stored application password, its
   * clients read public data without it and tell `notice` (once per client) that it needs replacing.
   * Writes are still refused with the site's answer.
   */
  noticing(notice: RefusedReadListener): CalendarService {
    const view = Object.create(this) as CalendarService;
    view.onRefusedRead = notice;
    return view;
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    await this.http?.close();
  }

  private client(credentials: CalendarCredentials | undefined): CalendarClient {
    if (!this.http) {
      throw UsageError.inWords((say) => ({
        message: say.t('calendar-api-not-set-up'),
        hint: say.t('calendar-api-not-set-up-hint'),
      }));
    }
    return new CalendarClient(
      new CalendarSession(this.http, this.namespacePath, this.siteUrl, credentials, this.onRefusedRead),
    );
  }
}

/** `https://example.org/wp-json` → `https://example.org`; `…/?rest_route=` → `…`. */
export function siteUrlOf(restRoot: string): string {
  if (!restRoot) return '';
  const url = new URL(restRoot);
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/wp-json\/?$/, '').replace(/\/+$/, '');
  return url.toString().replace(/\/$/, '');
}
