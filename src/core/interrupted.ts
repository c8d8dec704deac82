/**
 * The card a person gets when their queued command failed outside its run (its worker died twice,
 * or the job failed for any other reason after the request was acknowledged): never silence.
 */
import { type Translator, translator } from '../i18n/translate';
import { bindTokens } from './bind';
import type { AnyCommand } from './command';
import type { CommandInput } from './command-job';
import type { EffectRules } from './effects';
import type { CommandRegistry } from './registry';
import type { Card } from './reply';
import { tokenize } from './tokenize';

/** The command an input names and the check its effect rules give for its arguments, if known. */
function describe(
  registry: CommandRegistry<unknown>,
  input: CommandInput,
): { name?: string; check?: string; harmless?: boolean } {
  try {
    let command: AnyCommand<unknown> | undefined;
    let args: Record<string, unknown> | undefined;
    if (input.kind === 'text') {
      const resolved = registry.resolve(tokenize(input.text.trim()));
      command = resolved.command;
      args = bindTokens(command, resolved.rest);
    } else if (input.kind === 'structured') {
      command = registry.get(input.command);
      args = input.args;
    }
    if (!command) return {};
    const rules = command.effect as EffectRules<Record<string, unknown>, unknown> | undefined;
    if (!command.sideEffect) return { name: command.name, harmless: true };
    return { name: command.name, ...(rules && args ? { check: rules.check(args) } : {}) };
  } catch {
    return {};
  }
}

/**
 * "/deploy was interrupted; it may have partly run: check with `/deployment list mytool`" — in the
 * plain command form (the caller rewrites it for the platform), in `say`'s language (English by default).
 */
export function interruptedCard(
  registry: CommandRegistry<unknown>,
  input: CommandInput,
  say: Translator = translator('en'),
): Card {
  const { name, check, harmless } = describe(registry, input);
  const text = !name
    ? say.t('interrupted-may-have-run-unnamed')
    : harmless
      ? say.t('interrupted-harmless', `/${name}`)
      : check
        ? say.t('interrupted-check', `/${name}`, check)
        : say.t('interrupted-may-have-run', `/${name}`);
  return { text, status: 'warning', locale: say.language };
}
