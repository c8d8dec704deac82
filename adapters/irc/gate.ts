/**
 * What IRC lets through before a command runs: a secret value typed in IRC text is refused (IRC
 * never carries a secret: the command without it hands out the one-time secret page), and a person
 * not identified with services may run read-only commands only (a command with a side effect, or a
 * button that runs one, needs the account).
 */
import type { AnyCommand } from '../../src/core/command';
import type { CommandRegistry } from '../../src/core/registry';
import { tokenize } from '../../src/core/tokenize';

/** Why a command line is refused here, or `undefined` when it may run. */
export function refusal(
  registry: CommandRegistry<unknown>,
  text: string,
  identified: boolean,
  prefix: string,
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
    return `IRC never carries a secret, so nothing was done. Type ${name} without the secret value and I will send you a private link to a one-time page to enter it. If the value was real, treat it as leaked and rotate it.`;
  }
  if (command.sideEffect && !identified) {
    return `${name} changes something, so it needs you identified with services (NickServ): identify (SASL, or /msg NickServ IDENTIFY), then try again. Read-only commands work without.`;
  }
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
): string | undefined {
  if (identified) return undefined;
  const command = commandName ? registry.get(commandName) : undefined;
  if (command && !command.sideEffect) return undefined;
  return 'That button changes something, so it needs you identified with services (NickServ): identify, then press it again.';
}
