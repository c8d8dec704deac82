import {
  type CalendarSandbox,
  type CalendarSandboxOptions,
  SANDBOX_CALENDAR_USERS,
  startCalendarSandbox,
} from '@deckhand/sandbox/calendar';
import { afterAll, beforeAll } from 'vitest';

/** A JSON body of the calendar API. */
export type Body = Record<string, unknown>;

/** A Basic authorization header for `user`. */
export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The seeded editor's authorization header. */
export const EDITOR = basic(SANDBOX_CALENDAR_USERS.editor.user, SANDBOX_CALENDAR_USERS.editor.appPassword);

/** What the events API answered to one call. */
export interface CalendarAnswer {
  status: number;
  headers: Headers;
  body: Body;
}

const apiOf = (sandbox: CalendarSandbox) => `${sandbox.restRoot}/tribe/events/v1`;

/** A calendar emulator started for one test file, and a raw-HTTP caller of its events API. */
export interface CalendarApi {
  /** The emulator (set once the file's `beforeAll` hooks run). */
  readonly sandbox: CalendarSandbox;
  /** The events API's root URL. */
  readonly api: string;
  /** Calls `path` below `/tribe/events/v1`, with a JSON or form body, as the plugin would be called. */
  call(
    method: string,
    path: string,
    init?: { auth?: string; json?: unknown; form?: string },
  ): Promise<CalendarAnswer>;
}

/** Starts a calendar emulator before the file's tests and closes it after them. */
export function useCalendarApi(options: CalendarSandboxOptions = {}): CalendarApi {
  let sandbox: CalendarSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startCalendarSandbox(options);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  const started = (): CalendarSandbox => {
    if (!sandbox) throw new Error('the calendar emulator is not started yet');
    return sandbox;
  };
  return {
    get sandbox() {
      return started();
    },
    get api() {
      return apiOf(started());
    },
    async call(method, path, init = {}) {
      const headers: Record<string, string> = {};
      if (init.auth) headers.authorization = init.auth;
      let body: string | undefined;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.json);
      } else if (init.form !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = init.form;
      }
      const response = await fetch(`${apiOf(started())}${path}`, {
        method,
        headers,
        ...(body ? { body } : {}),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
    },
  };
}
