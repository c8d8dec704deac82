/**
 * A secret typed where a command expected something else (`/envvars show mytool <its value>`): the
 * usage error would echo it back, so a failing command line is first looked up among the registered
 * secrets — the global ones and those of the tools the line names or the conversation is bound to.
 * A match is answered as a pasted secret: nothing is echoed, and the user is told to rotate it.
 */
import type { SecretScrubber } from '../secrets';
import { RefusedError } from './errors';

/** True when `line` holds a registered secret, global or of one of `tools`. */
export async function holdsSecret(
  line: string,
  tools: readonly string[],
  scrubber: SecretScrubber,
): Promise<boolean> {
  const scopes = tools.length > 0 ? tools : [undefined];
  for (const tool of scopes) {
    const [out] = await scrubber.scrubTexts([line], { ...(tool ? { tool } : {}), untrusted: 'all' });
    if (out !== line) return true;
  }
  return false;
}

/** The refusal of a command line that holds a secret: it names no value and says to rotate it. */
export function pastedSecretError(): RefusedError {
  return new RefusedError(
    'That command line holds the value of a secret Deckhand keeps (a token, or a secret environment variable of the tool), so nothing was done and it is not repeated here.',
    {
      hint: 'Others may have seen it: treat it as leaked and rotate it (a new value with /envvars set in a private conversation, then revoke the old one where it was issued). Delete your message if you can.',
    },
  );
}
