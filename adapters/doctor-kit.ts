/**
 * The lines of `deckhand doctor`, shared by the CLI's own checks and the platforms' (see
 * `PlatformDoctor` in ./descriptor.ts). Loads no SDK and no HTTP client.
 */

/** One line of `deckhand doctor`: passed, failed (with what to do) or not applicable. */
export interface CheckResult {
  status: 'ok' | 'fail' | 'skip';
  /** What was checked, e.g. `Redis` or a platform's credentials. */
  label: string;
  /** What was found; for a failure, the problem and what to do. Never a secret. */
  detail: string;
  /** A check of the configuration alone (a failure there makes doctor exit 2, like `start`). */
  configuration?: boolean;
}

/** A passed check. */
export const ok = (label: string, detail: string): CheckResult => ({ status: 'ok', label, detail });
/** A failed check: `detail` names the problem and the fix. */
export const fail = (label: string, detail: string): CheckResult => ({ status: 'fail', label, detail });
/** A check that does not apply to this configuration. */
export const skip = (label: string, detail: string): CheckResult => ({ status: 'skip', label, detail });

/** A URL without its trailing slashes. */
export const trim = (url: string) => url.replace(/\/+$/, '');

/** A field of a JSON object, or `undefined`. */
export const field = (json: unknown, key: string): unknown =>
  json && typeof json === 'object' ? (json as Record<string, unknown>)[key] : undefined;

/** Longest piece of platform-supplied text (an error message, a URL) a line shows. */
const SHOWN_CHARS = 120;

/**
 * Text a platform sent, made inert for one terminal line: control characters (escape sequences, line
 * breaks) become spaces, the given secrets are masked (a webhook URL may carry the bot token in its
 * path), and the rest is cut at {@link SHOWN_CHARS}.
 */
export function inert(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[secret]');
  out = out.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return out.length > SHOWN_CHARS ? `${out.slice(0, SHOWN_CHARS - 1)}…` : out;
}

/** The line of a check that needs the credentials, when the credentials check failed. */
export const credentialsFirst = (label: string) => skip(label, 'not checked: the credentials failed above.');
