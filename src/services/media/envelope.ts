/**
 * The media host's JSON envelope (`{ msg, server_time, status, result }`) and what its failures mean
 * for a user. `status` inside the body is the real result code, whatever the HTTP status; it is a
 * number on success and sometimes a string (`"429"`). See specs/media/README.md §1–2.
 */
import { z } from 'zod';
import { NotFoundError, UpstreamError } from '../../core/errors';
import { isMessageKey, type MessageKey, type Translator } from '../../i18n/translate';

/** Service code name, in errors and metrics. */
export const MEDIA_SERVICE = 'media';

/** Any envelope: checked by hand so that errors are read whatever else is (not) there. */
export const EnvelopeSchema = z.looseObject({
  msg: z.string().optional(),
  server_time: z.string().optional(),
  status: z.union([z.number(), z.string()]).optional(),
  result: z.unknown().optional(),
});

/** A parsed envelope. */
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** A number the API may send as a string (`"123456"`, `"0.00000"`); an empty string counts as 0. */
export const numeric = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const n = typeof value === 'number' ? value : value.trim() === '' ? 0 : Number(value);
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: `not a number: ${String(value)}` });
    return z.NEVER;
  }
  return n;
});

/** `"1"`/`1`/`true` → true. */
export const flag = z
  .union([z.number(), z.string(), z.boolean()])
  .transform((v) => v === true || Number(v) === 1);

/** A string the API may send as a number, or leave out. */
export const text = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v) => (v === undefined ? undefined : String(v)));

/** The envelope's `status` as a number (NaN when it is missing or not numeric). */
export function statusOf(envelope: Envelope): number {
  return envelope.status === undefined ? Number.NaN : Number(envelope.status);
}

/** True for the rate-limit answer (`{"msg":"Too Many Requests","status":"429"}`). */
export function isRateLimited(envelope: Envelope): boolean {
  return statusOf(envelope) === 429 || /too many requests/i.test(envelope.msg ?? '');
}

/**
 * The result code a media answer's body reports, for the HTTP layer (`bodyStatus`): 429 for the
 * rate-limit answer, else the envelope's `status`; undefined for a body that is no envelope.
 */
export function envelopeStatus(text: string): number | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const envelope = EnvelopeSchema.safeParse(json);
  if (!envelope.success) return undefined;
  if (isRateLimited(envelope.data)) return 429;
  const status = statusOf(envelope.data);
  return Number.isFinite(status) ? status : undefined;
}

/** True when the envelope says the key is wrong or missing. */
export function isKeyProblem(status: number, msg: string | undefined): boolean {
  return status === 403 || status === 401 || /invalid key|wrong auth|no api key/i.test(msg ?? '');
}

/**
 * What a user is told to do about a refused key (depends on where the key came from): a message key
 * of the catalog, or English text from a key source that has none.
 */
export const DEFAULT_KEY_HINT: MessageKey = 'media-api-key-hint';

/** Context that makes an error message specific. */
export interface ErrorContext {
  /** The file the call was about. */
  fileCode?: string;
  /** What to do about a refused key: a message key, or English text. */
  keyHint?: string;
}

/** A key hint in the reader's language (English text stays as it is). */
function keyHintIn(say: Translator, hint: string): string {
  return isMessageKey(hint) ? say.t(hint) : hint;
}

/**
 * The error for a failed call: a refused key (403), a DMCA-disabled file (451), a file that is not
 * there or not yours (not found), a rate limit (429), or the service's own words.
 */
export function mediaError(status: number, msg: string | undefined, context: ErrorContext = {}): Error {
  const said = (msg ?? '').trim();
  const { fileCode } = context;
  const file = (say: Translator) =>
    fileCode ? say.t('media-api-file-named', fileCode) : say.t('media-api-this-file');
  if (isKeyProblem(status, said)) {
    const hint = context.keyHint ?? DEFAULT_KEY_HINT;
    return new UpstreamError(MEDIA_SERVICE, 403, (say) => ({
      message: said ? say.t('media-api-key-refused-said', said) : say.t('media-api-key-refused'),
      hint: keyHintIn(say, hint),
    }));
  }
  if (status === 451) {
    return new UpstreamError(MEDIA_SERVICE, 451, (say) => ({
      message: say.t('media-api-dmca-disabled', file(say)),
      hint: say.t('media-api-dmca-hint'),
    }));
  }
  if (/upload server/i.test(said)) {
    return new UpstreamError(
      MEDIA_SERVICE,
      Number.isFinite(status) && status >= 400 ? status : 502,
      (say) => ({
        message: say.t('media-api-upload-server-refused', said),
        hint: say.t('media-api-upload-server-hint'),
      }),
    );
  }
  if (/folder/i.test(said) && (status === 404 || /not found/i.test(said))) {
    return new NotFoundError((say) => ({
      message: say.t('media-api-folder-not-found'),
      hint: say.t('media-api-folder-not-found-hint'),
    }));
  }
  if (/transfer not found/i.test(said)) {
    return new NotFoundError((say) => ({
      message: fileCode ? say.t('media-api-no-transfer-named', fileCode) : say.t('media-api-no-transfer'),
      hint: say.t('media-api-no-transfer-hint'),
    }));
  }
  if (status === 404 || /not found|not your file/i.test(said)) {
    return new NotFoundError((say) => ({
      message: say.t('media-api-file-not-found', file(say)),
      hint: say.t('media-api-file-not-found-hint'),
    }));
  }
  if (status === 429 || /too many requests/i.test(said)) {
    return new UpstreamError(MEDIA_SERVICE, 429, (say) => ({
      message: say.t('media-api-rate-limited'),
      hint: say.t('media-api-rate-limited-hint'),
    }));
  }
  const code = Number.isFinite(status) && status >= 400 ? status : 502;
  return new UpstreamError(MEDIA_SERVICE, code, (say) => ({
    message: said ? say.t('media-api-said', said) : say.t('media-api-answered-status', String(status)),
    hint: code >= 500 ? say.t('media-api-server-problem') : undefined,
  }));
}

/** The `msg` of an error body, for the HTTP layer (`readError`). */
export function readMediaError(_status: number, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const msg = (body as { msg?: unknown }).msg;
  return typeof msg === 'string' && msg.trim() ? msg.trim() : undefined;
}

/** The error for an answer that does not have the documented shape. */
export function unreadable(what: MessageKey): UpstreamError {
  return new UpstreamError(MEDIA_SERVICE, 502, (say) => ({
    message: say.t('media-api-unreadable-answer', say.t(what)),
  }));
}
