/**
 * Destructive commands act on the exact resource named in their confirmation prompt, not on what
 * the words mean at click time: a command's `resolve` step turns `latest` and names into ids, checks
 * the target exists, and returns a version; the Confirm button stores both, and the click runs only
 * when the same resolve still finds that version.
 */
import { createHash } from 'node:crypto';
import type { Invocation } from './command';
import { NotFoundError, type Said, UsageError } from './errors';
import type { PlatformWords } from './platform-words';

/** The exact target of a destructive command, bound before its confirmation is asked. */
export interface BoundTarget<A> {
  /** What the target is, in words, e.g. `Job web of mytool` (said when it changed before Confirm). */
  label: string;
  /** The arguments naming exactly this target (`latest` replaced by the id, …); the prompt shows them. */
  args: A;
  /**
   * What tells this target apart from a later one of the same name (a creation time, a digest of
   * its definition). Checked again at Confirm; never a secret (it is stored with the button).
   */
  version?: string;
  /**
   * What the confirmation shows under the question, as a preformatted block: a diff, a plan. Shown
   * once, never stored with the button.
   */
  preview?: { text: string; language?: string };
}

/** What a command's `resolve` receives. */
export interface ResolveContext<A, S> {
  args: A;
  invocation: Invocation;
  services: S;
  /** The reader's platform's words (how to attach a file there), when the runner knows them. */
  here?: PlatformWords | undefined;
}

/** A short, stable digest of plain data (object keys sorted), for {@link BoundTarget.version}. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('base64url').slice(0, 16);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Runs `lookup`, turning the service's "not found" into `message` (said before any confirmation
 * is asked, or at Confirm when the target went away meanwhile).
 */
export async function mustExist<T>(lookup: () => Promise<T>, message: Said, hint?: string): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError(message, hint, { cause: error });
    throw error;
  }
}

/** The answer to a Confirm whose target changed (was replaced or recreated) after the question. */
export function targetChanged(label: string): UsageError {
  return UsageError.inWords((say) => ({
    message: say.t('guard-target-changed', label),
    hint: say.t('guard-target-changed-hint'),
  }));
}
