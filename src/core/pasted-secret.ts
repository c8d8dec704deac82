/**
 * A secret typed where a command expected something else (`/envvars show mytool <its value>`): the
 * usage error would echo it back, so a failing command line is first looked up among the registered
 * secrets — the global ones and those of the tools the line names or the conversation is bound to.
 * A match is answered as a pasted secret: nothing is echoed, and the user is told to rotate it.
 */

import { type Translator, translator } from '../i18n/translate';
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
  const words = (say: Translator) => ({
    message: say.t('pasted-secret-refused'),
    hint: say.t('pasted-secret-rotate'),
  });
  const english = words(translator('en'));
  return new RefusedError(english.message, { hint: english.hint, words });
}
