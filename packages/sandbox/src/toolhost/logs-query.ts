/**
 * Query parameters of the logs API (seeds/000, "Query of .../logs"), and its 422.
 *
 * Times (`since`, `until`) take every documented form: an RFC 3339 date-time with a UTC offset
 * (`2026-08-20T10:00:00Z`, `…+02:00`, fractions allowed), a date (`2026-08-20`, midnight UTC), or a
 * duration before now (`1h`, `30m`, `10s`, and combinations such as `1h30m` or `2d4h`; `0s` is now).
 *
 * 422 shape: the logs API's generated spec declares FastAPI's `{"detail":[…]}`, but its responses use
 * the same `ApiResponse` envelope as components-api, whose handler turns validation errors into
 * `{"messages":{"info":[],"warning":[],"error":["Validation error at lines: … Received value: '-1'"]}}`
 * (C `components/api/exceptions.py`). The emulator assumes logs-api shares that handler (same team,
 * same envelope) and answers in that shape, without the beta warning.
 */

/** One validation problem of a query parameter. */
export interface QueryProblem {
  param: string;
  msg: string;
  input: string;
}

/** The parsed query of `GET …/logs`. */
export interface LogsQuery {
  lines: number;
  direction: 'oldest_first' | 'newest_first';
  since: number;
  until: number;
  bucketOffset: number;
}

const DURATION = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|z|[+-]\d{2}:?\d{2})$/;

/** Parses a time parameter to epoch ms (relative to `now`); undefined when it is no valid form. */
export function parseTime(raw: string, now: number): number | undefined {
  const text = raw.trim();
  const duration = DURATION.exec(text);
  if (text !== '' && duration) {
    const [, d = '0', h = '0', m = '0', s = '0'] = duration;
    return now - (((Number(d) * 24 + Number(h)) * 60 + Number(m)) * 60 + Number(s)) * 1000;
  }
  const date = DATE.exec(text);
  if (date) {
    const ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    return Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(date[3]) ? undefined : ms;
  }
  const dt = DATETIME.exec(text);
  if (dt) {
    const [, day, hh, mm, ss = '00', fraction = '', zone = 'Z'] = dt;
    const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    const ms = Date.parse(`${day}T${hh}:${mm}:${ss}.${fraction.padEnd(3, '0').slice(0, 3)}${offset}`);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** A time as the API prints it: pydantic's UTC datetime (`…T10:00:00.123000Z`, no fraction at 0). */
export function formatTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? iso.replace('.000Z', 'Z') : iso.replace(/\.(\d{3})Z$/, '.$1000Z');
}

const TIME_FORMS =
  'a date-time with UTC offset, a date (YYYY-MM-DD) or a duration such as 1h, 30m, 10s or 1h30m';

function intParam(
  raw: string | undefined,
  param: string,
  fallback: number,
  problems: QueryProblem[],
  max?: number,
): number {
  if (raw === undefined) return fallback;
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) {
    problems.push({
      param,
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input: raw,
    });
    return fallback;
  }
  const n = Number(raw);
  if (n < 0) problems.push({ param, msg: 'Input should be greater than or equal to 0', input: raw });
  else if (max !== undefined && n >= max)
    problems.push({ param, msg: `Input should be less than ${max}`, input: raw });
  return n;
}

/** Parses the `lines` of `logs_stream` (0 or absent → the default; above `max` → a problem). */
export function parseStreamLines(
  raw: string | undefined,
  defaults: { lines: number; max: number },
  problems: QueryProblem[],
): number {
  const n = intParam(raw, 'lines', 0, problems);
  if (n > defaults.max) {
    problems.push({
      param: 'lines',
      msg: `Input should be less than or equal to ${defaults.max}`,
      input: raw ?? '',
    });
  }
  return n > 0 ? n : defaults.lines;
}

/** Parses `since`/`until`, recording a problem for an unparseable value. */
export function timeParam(
  raw: string | undefined,
  param: string,
  fallback: string,
  now: number,
  problems: QueryProblem[],
): number {
  const parsed = parseTime(raw ?? fallback, now);
  if (parsed !== undefined) return parsed;
  problems.push({ param, msg: `Value error, Invalid time: expected ${TIME_FORMS}`, input: raw ?? '' });
  return now;
}

/** Parses the query of `GET …/logs`; problems are collected, not thrown. */
export function parseLogsQuery(
  get: (name: string) => string | undefined,
  now: number,
): { query: LogsQuery; problems: QueryProblem[] } {
  const problems: QueryProblem[] = [];
  const lines = intParam(get('lines'), 'lines', 0, problems);
  const rawDirection = get('direction') ?? 'oldest_first';
  if (rawDirection !== 'oldest_first' && rawDirection !== 'newest_first') {
    problems.push({
      param: 'direction',
      msg: "Input should be 'oldest_first' or 'newest_first'",
      input: rawDirection,
    });
  }
  const direction = rawDirection === 'newest_first' ? 'newest_first' : 'oldest_first';
  const since = timeParam(get('since'), 'since', '1h', now, problems);
  const until = timeParam(get('until'), 'until', '0s', now, problems);
  const bucketOffset = intParam(get('bucket_offset'), 'bucket_offset', 0, problems, 1_000_000);
  return { query: { lines, direction, since, until, bucketOffset }, problems };
}

/** The 422 messages, worded by components-api's validation handler. */
export function problemMessages(problems: readonly QueryProblem[]): string[] {
  return problems.map((p) => `Validation error at ${p.param}: ${p.msg}. Received value: '${p.input}'`);
}
