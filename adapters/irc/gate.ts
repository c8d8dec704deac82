/**
 * What IRC lets through before a command runs: a secret value typed in IRC text is refused (IRC
 * never carries a secret: the command without it hands out the one-time secret page), and a person
 * not identified with services may run read-only commands only (a command with a side effect, or a
 * button that runs one, needs the account).
 */
import type { AnyCommand } from '../../src/core/command';
import type { CommandRegistry } from '../../src/core/registry';
import { tokenize } from '../../src/core/tokenize';
import { type Translator, translator } from '../../src/i18n/translate';

/** Why a command line is refused here, or `undefined` when it may run. */
export function refusal(
  registry: CommandRegistry<unknown>,
  text: string,
  identified: boolean,
  prefix: string,
  say: Translator = translator('en'),
): string | undefined {
  let command: AnyCommand<unknown>;
  let rest: { text: string; quoted: boolean }[];
  try {
    ({ command, rest } = registry.resolve(tokenize(text)));
  } catch {
    return undefined; // The runner answers a malformed line with its usage message.
  }
  const name = `${prefix}${command.name}`;
  if (secretGiven(command, rest)) {
    return say.t('irc-no-secrets', name);
  }
  if (command.sideEffect && !identified) return say.t('irc-needs-identified', name);
  return undefined;
}

/** True when the line gives a value to one of the command's secret arguments. */
function secretGiven(
  command: AnyCommand<unknown>,
  rest: readonly { text: string; quoted: boolean }[],
): boolean {
  const secrets = command.secretArgs ?? [];
  if (secrets.length === 0) return false;
  const flags = rest
    .filter((t) => !t.quoted && t.text.startsWith('--'))
    .map((t) => t.text.slice(2).split('=')[0]);
  if (secrets.some((s) => flags.includes(s))) return true;
  const positional = (command.positional ?? []) as readonly string[];
  const words = rest.filter((t) => t.quoted || !t.text.startsWith('--')).length;
  return secrets.some((s) => {
    const index = positional.indexOf(s);
    return index >= 0 && words > index;
  });
}

/** Why pressing a button running `commandName` is refused here, or `undefined`. */
export function pressRefusal(
  registry: CommandRegistry<unknown>,
  commandName: string | undefined,
  identified: boolean,
  say: Translator = translator('en'),
): string | undefined {
  if (identified) return undefined;
  const command = commandName ? registry.get(commandName) : undefined;
  if (command && !command.sideEffect) return undefined;
  return say.t('irc-press-needs-identified');
}
