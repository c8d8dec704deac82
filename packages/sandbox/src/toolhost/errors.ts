/**
 * Error bodies of the emulated APIs. Each real backend has its own shape (specs/toolforge/README.md,
 * "Error body shapes"), and clients parse them differently, so the emulator reproduces each exactly.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The API areas behind the gateway, by path prefix. */
export type ToolhostArea = 'builds' | 'components' | 'jobs' | 'envvars' | 'logs';

/** The beta notice every components response carries by default (components `ResponseMessages`). */
export const BETA_WARNING = 'You are using a beta feature of Toolforge.';

/** `ResponseMessages` of the FastAPI services (components, logs): all three lists present. */
export interface EnvelopeMessages {
  info: string[];
  warning: string[];
  error: string[];
}

/** Components/logs success envelope `{data, messages}`; warning defaults to the beta notice. */
export function envelope<T>(
  data: T,
  messages: Partial<EnvelopeMessages> = {},
  defaultWarning: string[] = [BETA_WARNING],
): { data: T; messages: EnvelopeMessages } {
  return {
    data,
    messages: {
      info: messages.info ?? [],
      warning: messages.warning ?? defaultWarning,
      error: messages.error ?? [],
    },
  };
}

/**
 * The body one area answers an error with.
 * - builds (Go/echo): `{"error":[msg]}`, except 401 which is echo's `{"message":"Unauthorized"}`.
 * - jobs, envvars: `{"error":[msg]}`.
 * - components, logs (FastAPI + custom handler): the envelope without `data`, all warnings dropped
 *   (components `api/exceptions.py` builds `ResponseMessages(error=[…], info=[], warning=[])`).
 */
export function errorBody(area: ToolhostArea, status: number, messages: string | string[]): unknown {
  const list = typeof messages === 'string' ? [messages] : messages;
  switch (area) {
    case 'builds':
      return status === 401 ? { message: 'Unauthorized' } : { error: list };
    case 'components':
    case 'logs':
      return { messages: { info: [], warning: [], error: list } };
    default:
      return { error: list };
  }
}

/** Sends {@link errorBody} for `area` with `status`. */
export function sendError(
  c: Context,
  area: ToolhostArea,
  status: ContentfulStatusCode,
  messages: string | string[],
): Response {
  return c.json(errorBody(area, status, messages) as object, status);
}

/** The area a request path belongs to (`/builds/v1/…` → builds), if any. */
export function areaOfPath(path: string): ToolhostArea | undefined {
  const first = path.split('/')[1];
  switch (first) {
    case 'builds':
    case 'components':
    case 'jobs':
    case 'envvars':
    case 'logs':
      return first;
    default:
      return undefined;
  }
}

/**
 * The body of a route that does not exist: echo answers `{"message":"Not Found"}`; components and
 * logs route Starlette's 404 through their envelope handler; jobs/envvars (FastAPI) `{"detail":…}`.
 */
export function notFoundBody(path: string): unknown {
  const area = areaOfPath(path);
  if (area === 'builds') return { message: 'Not Found' };
  if (area === 'components' || area === 'logs') return errorBody(area, 404, 'Not Found');
  return { detail: 'Not Found' };
}
