/**
 * What the emulated WordPress does around every route: Basic auth with application passwords (a
 * bad password fails the whole request, as core's `rest_authentication_errors` does), the error
 * envelope `{code, message, data: {status}}`, request bodies (JSON or form-encoded, merged over
 * the query as `WP_REST_Request` does) and the validation errors of core.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type CalendarState, capsOf, type WpUser } from './state';

/** Hono variables of the calendar app. */
export type CalendarEnv = { Variables: { state: CalendarState; user: WpUser | undefined } };

/** A route's context. */
export type WpContext = Context<CalendarEnv>;

/** Answers a WordPress error. */
export function wpError(
  c: Context,
  code: string,
  message: string,
  status: ContentfulStatusCode,
  data: Record<string, unknown> = {},
): Response {
  return c.json({ code, message, data: { status, ...data } }, status);
}

/**
 * `400 rest_invalid_param` for the named parameters; `messages` gives core's own sentence for some
 * (`image is not of type string.`), the others read `Invalid parameter.`.
 */
export function invalidParams(c: Context, names: string[], messages: Record<string, string> = {}): Response {
  const params = Object.fromEntries(names.map((n) => [n, messages[n] ?? 'Invalid parameter.']));
  return wpError(c, 'rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, 400, { params });
}

/** `400 rest_missing_callback_param` for the named parameters. */
export function missingParams(c: Context, names: string[]): Response {
  return wpError(c, 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, 400, {
    params: names,
  });
}

/** `rest_forbidden`: 401 when logged out, 403 when logged in but not allowed. */
export function forbidden(c: WpContext): Response {
  const status = c.get('user') ? 403 : 401;
  return wpError(c, 'rest_forbidden', 'Sorry, you are not allowed to do that.', status);
}

/** `404 rest_no_route`: the answer for a route that does not exist (or an API switched off). */
export function noRoute(c: Context): Response {
  return wpError(c, 'rest_no_route', 'No route was found matching the URL and request method.', 404);
}

/**
 * Authenticates `Authorization: Basic` with an application password. No header: anonymous. A header
 * with an unknown user or a wrong password: 401, whatever the route.
 */
export function basicAuth(state: CalendarState): MiddlewareHandler<CalendarEnv> {
  return async (c, next) => {
    c.set('state', state);
    c.set('user', undefined);
    const header = state.site.stripsAuthorization ? undefined : c.req.header('authorization');
    if (header) {
      const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
      const decoded = match ? Buffer.from(match[1] as string, 'base64').toString('utf8') : '';
      const colon = decoded.indexOf(':');
      if (colon < 0) {
        return wpError(
          c,
          'invalid_username',
          'Unknown username. Check again or try your email address.',
          401,
        );
      }
      const login = decoded.slice(0, colon);
      const password = decoded.slice(colon + 1).replace(/\s+/g, '');
      const user = state.users.find((u) => u.login === login);
      if (!user) {
        return wpError(
          c,
          'invalid_username',
          'Unknown username. Check again or try your email address.',
          401,
        );
      }
      if (!user.appPasswords.includes(password)) {
        return wpError(
          c,
          'incorrect_password',
          'The provided password is an invalid application password.',
          401,
        );
      }
      c.set('user', user);
    }
    await next();
  };
}

/** The request's parameters: query, then the body (JSON or form) over it. `undefined` for bad JSON. */
export async function requestParams(c: WpContext): Promise<Record<string, unknown> | undefined> {
  const params: Record<string, unknown> = {};
  const url = new URL(c.req.url);
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    const name = key.replace(/\[\]$/, '');
    params[name] = key.endsWith('[]') || values.length > 1 ? values : values[0];
  }
  if (c.req.method === 'GET' || c.req.method === 'DELETE') return params;
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    const text = await c.req.text();
    if (text.trim() === '') return params;
    try {
      const body = JSON.parse(text) as unknown;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
      return { ...params, ...(body as Record<string, unknown>) };
    } catch {
      return undefined;
    }
  }
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    const form = await c.req.parseBody({ all: true });
    for (const [key, value] of Object.entries(form)) {
      params[key.replace(/\[\]$/, '')] = key.endsWith('[]') && !Array.isArray(value) ? [value] : value;
    }
  }
  return params;
}

/** `400 rest_invalid_json`. */
export function invalidJson(c: Context): Response {
  return wpError(c, 'rest_invalid_json', 'Invalid JSON body passed.', 400);
}

/** WordPress's `tribe_is_truthy`. */
export function truthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
  return false;
}

/** A positive integer parameter (`is_positive_int`), or undefined when it is not one. */
export function positiveInt(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n > 0 ? n : undefined;
}

/** A list parameter: an array, or a comma-separated string. */
export function listParam(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const items = Array.isArray(value) ? value : String(value).split(',');
  return items.map((item) => String(item).trim()).filter(Boolean);
}

/**
 * WordPress core's registered post statuses (`create_initial_post_types()` in wp-includes/post.php);
 * The Events Calendar registers none of its own.
 */
const REGISTERED_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
];

/**
 * The statuses of a list's `status` argument. Without one: `any` (everything but the trash) for
 * those who may edit events, else `publish` (`Archive_Event.php`, `Archive_Venue.php`,
 * `Archive_Organizer.php` `get()`). With one, `Archive_Base.php` `filter_post_status_list()`: a user
 * who may not edit gets exactly `publish` or an invalid parameter; an editor any list of registered
 * statuses, else invalid — `any` is not a registered status, so `status=any` is refused.
 */
export function visibleStatuses(user: WpUser | undefined, requested: unknown): string[] | 'invalid' {
  const caps = capsOf(user);
  const asked = listParam(requested);
  if (asked.length === 0)
    return caps.editPosts ? ['publish', 'future', 'draft', 'pending', 'private'] : ['publish'];
  if (!caps.editPosts) return asked.length === 1 && asked[0] === 'publish' ? asked : 'invalid';
  return asked.every((s) => REGISTERED_STATUSES.includes(s)) ? asked : 'invalid';
}

/** `scale_back_post_status`: users who cannot publish get `pending` instead, and `draft` by default. */
export function scaleBackStatus(user: WpUser | undefined, status: unknown): string {
  const wanted = typeof status === 'string' ? status.trim() : '';
  if (capsOf(user).publishPosts) return wanted || 'publish';
  if (wanted === 'publish' || wanted === 'future') return 'pending';
  return wanted || 'draft';
}

/** Statuses a post may be given. */
export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/**
 * WordPress core's schema type check of a request argument (`rest_validate_value_from_schema`, run
 * by `WP_REST_Request::sanitize_params` before any `validate_callback`): a `string` argument must be
 * a string — a JSON number is refused — and a `boolean` one a boolean, `0`/`1` or one of the
 * strings `true`, `false`, `1`, `0`, `''`. Returns core's message, or undefined when it passes.
 */
export function schemaTypeProblem(
  name: string,
  value: unknown,
  type: 'string' | 'boolean',
): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (type === 'string') return typeof value === 'string' ? undefined : `${name} is not of type string.`;
  const ok =
    typeof value === 'boolean' ||
    value === 0 ||
    value === 1 ||
    (typeof value === 'string' && ['true', 'false', '1', '0', ''].includes(value.toLowerCase()));
  return ok ? undefined : `${name} is not of type boolean.`;
}
