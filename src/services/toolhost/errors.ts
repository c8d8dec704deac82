/**
 * How the tool hosting platform's errors reach the user: one reader for the error bodies of all
 * five APIs (their shapes differ), and the errors Deckhand raises itself before calling — a tool it
 * has no credentials for, or an operation a deploy token cannot do.
 */
import {
  inEnglish,
  NotFoundError,
  PermissionDenied,
  type Said,
  type UpstreamError,
  type Words,
} from '../../core/errors';
import type { MessageKey, Translator } from '../../i18n/translate';

/** Why Deckhand cannot make a call for a tool. */
export type ToolhostAccessProblem = 'no-credentials' | 'certificate-required' | 'no-server';

/**
 * Deckhand lacks what a call needs: any credentials for the tool, the tool's client certificate
 * (a deploy token only starts and shows deployments), or the URL of the server to call.
 * The message names the configuration to set.
 */
export class ToolhostAccessError extends PermissionDenied {
  /** Which of the problems this is. */
  readonly problem: ToolhostAccessProblem;
  /** The tool concerned. */
  readonly tool: string;

  constructor(problem: ToolhostAccessProblem, tool: string, message: Said, hint?: string) {
    super(message, hint);
    this.problem = problem;
    this.tool = tool;
  }
}

/** The error for an operation (`action`: what it does, in words) a deploy-token-only tool cannot do. */
export function certificateRequired(tool: string, action: MessageKey): ToolhostAccessError {
  return new ToolhostAccessError('certificate-required', tool, (say) => ({
    message: say.t('toolhost-api-certificate-required', say.t(action), tool),
    hint: say.t('toolhost-api-certificate-required-hint', `TOOLHOST_CERT_DIR/${tool}/`),
  }));
}

/** The error for a tool Deckhand has neither a certificate nor a deploy token for. */
export function noCredentials(tool: string): ToolhostAccessError {
  return new ToolhostAccessError('no-credentials', tool, (say) => ({
    message: say.t('toolhost-api-no-credentials', tool),
    hint: say.t(
      'toolhost-api-no-credentials-hint',
      `TOOLHOST_CERT_DIR/${tool}/client.crt`,
      `TOOLHOST_DEPLOY_TOKENS=${tool}=<token>`,
    ),
  }));
}

/** The error for a server URL that is not configured. */
export function noServer(
  tool: string,
  variable: 'TOOLHOST_URL' | 'TOOLHOST_INTERNAL_URL',
): ToolhostAccessError {
  return new ToolhostAccessError('no-server', tool, (say) => ({
    message:
      variable === 'TOOLHOST_URL'
        ? say.t('toolhost-api-no-external-server', tool, variable)
        : say.t('toolhost-api-no-internal-server', tool, variable),
    hint: say.t('toolhost-api-no-server-hint', variable),
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return [];
}

/** One FastAPI validation error, its location split into union member (if any) and field path. */
interface FieldError {
  member: string | undefined;
  field: string[];
  msg: string;
}

function fieldError(detail: unknown): FieldError | undefined {
  if (!isRecord(detail) || typeof detail.msg !== 'string') return undefined;
  let loc = Array.isArray(detail.loc) ? detail.loc.map(String) : [];
  if (['body', 'query', 'path', 'header'].includes(loc[0] ?? '')) loc = loc.slice(1);
  // pydantic names the member of a union body first (`NewOneOffJob`); field names are snake_case.
  const member = loc.length > 1 && /^[A-Z]/.test(loc[0] ?? '') ? loc[0] : undefined;
  return { member, field: member ? loc.slice(1) : loc, msg: detail.msg };
}

/**
 * Renders FastAPI's 422 `detail` as "field a.b: msg" lines. A union body (the jobs API's three job
 * shapes) gets errors for every member; members whose `job_type` did not match are left out when
 * another member remains, so the user reads only the errors of the kind of job they meant.
 */
function renderDetails(details: unknown[]): string[] {
  const errors = details.map(fieldError).filter((e): e is FieldError => e !== undefined);
  const members = new Set(errors.map((e) => e.member).filter(Boolean));
  const ruledOut = new Set(
    errors.filter((e) => e.member && e.field.join('.') === 'job_type').map((e) => e.member),
  );
  const relevant =
    ruledOut.size > 0 && ruledOut.size < members.size
      ? errors.filter((e) => !ruledOut.has(e.member))
      : errors;
  const lines = relevant.map((e) => (e.field.length > 0 ? `field ${e.field.join('.')}: ${e.msg}` : e.msg));
  return [...new Set(lines)];
}

/**
 * Reads the service's own message out of an error body of any of the platform's APIs:
 * components/logs `{messages:{error:[…]}}`, builds/jobs/envvars `{"error":[…]}`, FastAPI 422
 * `{"detail":[{loc,msg,type}]}` (rendered "field x: msg"), `{"detail":"…"}`, echo's
 * `{"message":"Unauthorized"}`, and a bare JSON string. Undefined when there is none.
 */
export function readToolhostError(status: number, body: unknown): string | undefined {
  const said = toolhostSaid(status, body);
  return typeof said === 'function' ? inEnglish(said).message : said;
}

/**
 * The service's own message (see {@link readToolhostError}) for the HTTP layer's `readError`: as
 * the platform said it, or in Deckhand's words (in the reader's language) where a line of it names
 * a Deckhand command to run instead.
 */
export function toolhostSaid(status: number, body: unknown): Said | undefined {
  const message = serviceMessage(status, body);
  if (message === undefined) return undefined;
  const lines = message.split('\n');
  if (!lines.some((line) => NO_SUCH_IMAGE.test(line.trim()))) return message;
  return (say) => ({ message: lines.map((line) => lineInDeckhandWords(say, line)).join('\n') });
}

/** The platform's answer to a job on an image it does not have. */
const NO_SUCH_IMAGE = /^No such image '(.+)'$/;

/** A line of the platform's that names a Deckhand command to run instead, in Deckhand's words. */
function lineInDeckhandWords(say: Translator, line: string): string {
  const image = NO_SUCH_IMAGE.exec(line.trim());
  if (image) return say.t('toolhost-api-no-such-image', image[1] as string);
  return line;
}

function serviceMessage(_status: number, body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  if (!isRecord(body)) return undefined;
  const envelope = isRecord(body.messages) ? strings(body.messages.error) : [];
  if (envelope.length > 0) return envelope.join('\n');
  const errors = strings(body.error);
  if (errors.length > 0) return errors.join('\n');
  if (Array.isArray(body.detail)) {
    const details = renderDetails(body.detail);
    if (details.length > 0) return details.join('\n');
  }
  if (typeof body.detail === 'string' && body.detail.trim()) return body.detail.trim();
  if (typeof body.message === 'string' && body.message.trim()) return body.message.trim();
  return undefined;
}

/** True when a value parsed from a log stream looks like an error object rather than an entry. */
export function looksLikeStreamError(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return 'error' in value || 'detail' in value || (isRecord(value.messages) && 'error' in value.messages);
}

/** Maps a call's errors to clearer ones; returns undefined to keep the original. */
export type ErrorMapper = (error: UpstreamError) => Error | undefined;

/** An {@link ErrorMapper} turning a 404 into a {@link NotFoundError} that names the thing. */
export function notFound(words: Words): ErrorMapper {
  return (error) =>
    error.status === 404 ? new NotFoundError(words, undefined, { cause: error }) : undefined;
}
