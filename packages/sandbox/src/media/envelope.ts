/** The API's envelope, as the emulator answers: `{ msg, server_time, status, result }`. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { serverTime } from './state';

/** A success envelope; `extra` adds top-level members (slots, `new_title`). */
export function ok(c: Context, result?: unknown, extra: Record<string, unknown> = {}, msg = 'OK') {
  return c.json({
    msg,
    server_time: serverTime(),
    status: 200,
    ...(result !== undefined ? { result } : {}),
    ...extra,
  });
}

/**
 * An error envelope. The host's HTTP status for these is not documented; the emulator answers 200
 * and puts the code in the body, as XFileSharing hosts do (clients must read the body anyway).
 */
export function fail(c: Context, status: number, msg: string, httpStatus: ContentfulStatusCode = 200) {
  return c.json({ msg, server_time: serverTime(), status }, httpStatus);
}
