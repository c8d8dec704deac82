import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { listen, serverFor, shut, urlHost } from '../http-server';
import { createEventsRoutes } from './events';
import { createLinkedRoutes } from './linked';
import type { Urls } from './render';
import { SANDBOX_CALENDAR_USERS, seedCalendar } from './seed';
import { CalendarState } from './state';
import { createTermRoutes } from './terms';
import { basicAuth, type CalendarEnv, noRoute, wpError } from './wp';

/** The plugin's namespace. */
export const CALENDAR_NAMESPACE = 'tribe/events/v1';

/** Options of {@link startCalendarSandbox}. */
export interface CalendarSandboxOptions {
  host?: string;
  /** Seed users, venues, organizers, terms and events (seed.ts). Default true. */
  seed?: boolean;
  /** The site's zone. Default `Europe/Berlin`. */
  timezone?: string;
  /** The clock of the site (default `Date.now`). */
  now?: () => number;
}

/** A running calendar sandbox. */
export interface CalendarSandbox {
  /** `http://127.0.0.1:PORT` */
  siteUrl: string;
  /** `http://127.0.0.1:PORT/wp-json` */
  restRoot: string;
  namespace: string;
  /** The editor's application password the sandbox wiring uses. Secret. */
  credentials: { user: string; appPassword: string };
  state: CalendarState;
  controls: {
    /** Switches the plugin's REST API off or on. */
    setApiDisabled(disabled: boolean): void;
    /**
     * Answers the next `method` request to `path` (under the namespace, e.g. `/events`) with an
     * error, as a site that breaks between two calls would.
     */
    failNext(method: string, path: string, error: { status: number; code: string; message: string }): void;
    /** While down, every connection is dropped (the site cannot be reached). */
    setDown(down: boolean): void;
    /** Acts like a web server that drops the `Authorization` header before WordPress sees it. */
    setStripsAuthorization(strips: boolean): void;
  };
  close(): Promise<void>;
}

/** The whole site as a Hono app. */
export function createCalendarApp(state: CalendarState): Hono<CalendarEnv> {
  const site = state.site.url;
  const urls: Urls = { site, api: `${site}/wp-json/${CALENDAR_NAMESPACE}` };
  const app = new Hono<CalendarEnv>();
  app.use('/wp-json/*', basicAuth(state));
  app.get('/wp-json', (c) => c.json(rootIndex(state)));

  const api = new Hono<CalendarEnv>();
  api.use('*', async (c, next) => {
    if (state.site.apiDisabled) return noRoute(c);
    const path = c.req.path.slice(`/wp-json/${CALENDAR_NAMESPACE}`.length) || '/';
    const index = state.failures.findIndex((f) => f.method === c.req.method && f.path === path);
    const failure = index >= 0 ? state.failures.splice(index, 1)[0] : undefined;
    if (failure) return wpError(c, failure.code, failure.message, failure.status as ContentfulStatusCode);
    await next();
  });
  api.get('/', (c) => c.json({ namespace: CALENDAR_NAMESPACE, routes: routeIndex(urls) }));
  api.get('/doc', (c) => c.json(swagger(urls)));
  api.route('/events', createEventsRoutes(state, urls));
  api.route('/venues', createLinkedRoutes(state, urls, 'venue'));
  api.route('/organizers', createLinkedRoutes(state, urls, 'organizer'));
  api.route('/categories', createTermRoutes(state, urls, 'tribe_events_cat'));
  api.route('/tags', createTermRoutes(state, urls, 'post_tag'));
  app.route(`/wp-json/${CALENDAR_NAMESPACE}`, api);

  // Front-end pages carry the plugin's discovery headers.
  app.get('/', (c) => discovery(c.html(`<h1>${state.site.name}</h1>`), urls));
  app.get('/event/:slug/', (c) => discovery(c.html(`<h1>Event ${c.req.param('slug')}</h1>`), urls));
  app.notFound((c) => noRoute(c));
  app.onError((_error, c) =>
    wpError(c, 'internal_server_error', 'There has been a critical error on this website.', 500),
  );
  return app;
}

function discovery(response: Response, urls: Urls): Response {
  response.headers.set('X-TEC-API-VERSION', 'v1');
  response.headers.set('X-TEC-API-ROOT', urls.api);
  response.headers.set('X-TEC-API-ORIGIN', urls.site);
  return response;
}

function rootIndex(state: CalendarState) {
  const offset = offsetHours(state.site.timezone, state.now());
  return {
    name: state.site.name,
    description: 'Events of the Deckhand sandbox',
    url: state.site.url,
    home: state.site.url,
    gmt_offset: offset,
    timezone_string: state.site.timezone,
    namespaces: state.site.apiDisabled
      ? ['oembed/1.0', 'wp/v2']
      : ['oembed/1.0', 'wp/v2', CALENDAR_NAMESPACE],
    authentication: {
      'application-passwords': {
        endpoints: { authorization: `${state.site.url}/wp-admin/authorize-application.php` },
      },
    },
  };
}

function offsetHours(zone: string, now: number): number {
  const formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  const part = formatter.formatToParts(new Date(now)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part);
  if (!match) return 0;
  const hours = Number(match[2]) + Number(match[3]) / 60;
  return match[1] === '-' ? -hours : hours;
}

function routeIndex(urls: Urls): Record<string, { methods: string[] }> {
  const api = `/${CALENDAR_NAMESPACE}`;
  const editable = ['POST', 'PUT', 'PATCH'];
  return {
    [api]: { methods: ['GET'] },
    [`${api}/doc`]: { methods: ['GET'] },
    [`${api}/events`]: { methods: ['GET', 'POST'] },
    [`${api}/events/(?P<id>\\d+)`]: { methods: ['GET', ...editable, 'DELETE'] },
    [`${api}/events/by-slug/(?P<slug>[^/]+)`]: { methods: ['GET', ...editable, 'DELETE'] },
    [`${api}/venues`]: { methods: ['GET', 'POST'] },
    [`${api}/venues/(?P<id>\\d+)`]: { methods: ['GET', ...editable, 'DELETE'] },
    [`${api}/venues/by-slug/(?P<slug>[^/]+)`]: { methods: ['GET', ...editable, 'DELETE'] },
    [`${api}/organizers`]: { methods: ['GET', 'POST'] },
    [`${api}/organizers/(?P<id>\\d+)`]: { methods: ['GET', ...editable, 'DELETE'] },
    [`${api}/organizers/by-slug/(?P<slug>[^/]+)`]: { methods: ['GET', ...editable, 'DELETE'] },
    [`${api}/categories`]: { methods: ['GET', 'POST'] },
    [`${api}/categories/(?P<id>\\d+)`]: { methods: ['GET', ...editable, 'DELETE'] },
    [`${api}/tags`]: { methods: ['GET', 'POST'] },
    [`${api}/tags/(?P<id>\\d+)`]: { methods: ['GET', ...editable, 'DELETE'] },
    _links: { methods: [urls.api] },
  };
}

function swagger(urls: Urls) {
  return {
    swagger: '2.0',
    info: { title: 'The Events Calendar REST API', version: '1.0.0' },
    host: new URL(urls.site).host,
    basePath: `/wp-json/${CALENDAR_NAMESPACE}`,
    paths: Object.fromEntries(
      [
        '/events',
        '/events/{id}',
        '/venues',
        '/venues/{id}',
        '/organizers',
        '/organizers/{id}',
        '/categories',
        '/categories/{id}',
        '/tags',
        '/tags/{id}',
      ].map((path) => [path, {}]),
    ),
  };
}

/**
 * Plain-permalink requests (`/?rest_route=/tribe/…`) are served like `/wp-json/tribe/…`, and a
 * trailing slash on a REST route is ignored.
 */
function normalizeRoutes(fetch: (request: Request) => Response | Promise<Response>) {
  return (request: Request) => {
    const url = new URL(request.url);
    const route = url.searchParams.get('rest_route');
    if (url.pathname === '/' && route !== null) {
      url.searchParams.delete('rest_route');
      url.pathname = `/wp-json${route.startsWith('/') ? route : `/${route}`}`;
    }
    // WordPress serves REST routes with or without a trailing slash.
    if (url.pathname.startsWith('/wp-json/') && url.pathname.endsWith('/'))
      url.pathname = url.pathname.slice(0, -1);
    return url.href === request.url ? fetch(request) : fetch(new Request(url, request));
  };
}

/** Starts the sandbox site. */
export async function startCalendarSandbox(options: CalendarSandboxOptions = {}): Promise<CalendarSandbox> {
  const host = options.host ?? '127.0.0.1';
  const state = new CalendarState(
    {
      name: 'Deckhand Community Calendar',
      url: '',
      timezone: options.timezone ?? 'Europe/Berlin',
      perPage: 10,
      apiDisabled: false,
    },
    options.now ?? Date.now,
  );
  let app: Hono<CalendarEnv> | undefined;
  const server = serverFor({
    fetch: normalizeRoutes((request) => (app as Hono<CalendarEnv>).fetch(request)),
  });
  const port = await listen(server, host);
  let down = false;
  server.on('connection', (socket) => {
    if (down) socket.destroy();
  });
  const siteUrl = `http://${urlHost(host)}:${port}`;
  state.site.url = siteUrl;
  app = createCalendarApp(state);
  if (options.seed !== false) seedCalendar(state);
  return {
    siteUrl,
    restRoot: `${siteUrl}/wp-json`,
    namespace: CALENDAR_NAMESPACE,
    credentials: { ...SANDBOX_CALENDAR_USERS.editor },
    state,
    controls: {
      setApiDisabled(disabled) {
        state.site.apiDisabled = disabled;
      },
      failNext(method, path, error) {
        state.failures.push({ method: method.toUpperCase(), path, ...error });
      },
      setStripsAuthorization(strips) {
        state.site.stripsAuthorization = strips;
      },
      setDown(value) {
        down = value;
        if (value) server.closeAllConnections();
      },
    },
    close: () => shut(server),
  };
}

export { SANDBOX_CALENDAR_USERS, SANDBOX_EVENT_PASSWORD } from './seed';
export { CalendarState } from './state';
