import type { z } from 'zod';
import { type Translator, translator } from '../i18n/translate';
import { type AnyCommand, summaryKey } from './command';
import type { CommandRegistry } from './registry';
import type { DraftCard } from './reply';
import { argInfo, toFlagName, toPositionalName } from './schema-info';

/** The usage line of a command, e.g. `/build start <tool> <source_url> [--ref VALUE]`. */
export function usageLine(command: AnyCommand<unknown>): string {
  const shape = (command.args as z.ZodObject).shape as Record<string, z.ZodType>;
  const positional = new Set<string>(command.positional ?? []);
  const parts = [`/${command.name}`];
  for (const key of command.positional ?? []) {
    const info = argInfo(shape[key] as z.ZodType);
    const name = info.kind === 'array' ? `<${toPositionalName(key)}>...` : `<${toPositionalName(key)}>`;
    parts.push(info.optional ? `[${name}]` : name);
  }
  for (const [key, schema] of Object.entries(shape)) {
    if (positional.has(key)) continue;
    const info = argInfo(schema);
    if (info.hidden) continue;
    const flag = `--${toFlagName(key)}`;
    let text = flag;
    if (info.kind === 'enum' && info.choices) text = `${flag} ${info.choices.join('|')}`;
    else if (info.kind === 'array') text = `${flag} ${placeholder(key)}...`;
    else if (info.kind !== 'boolean') text = `${flag} ${placeholder(key)}`;
    parts.push(info.optional ? `[${text}]` : text);
  }
  return parts.join(' ');
}

function placeholder(key: string): string {
  return toFlagName(key).toUpperCase().replaceAll('-', '_');
}

/** The short usage of a command in a list: its name and positionals, `…` when it has options. */
export function shortUsage(command: AnyCommand<unknown>): string {
  const shape = (command.args as z.ZodObject).shape as Record<string, z.ZodType>;
  const positional = new Set<string>(command.positional ?? []);
  const options = Object.entries(shape).some(
    ([key, schema]) => !positional.has(key) && !argInfo(schema).hidden,
  );
  const words = [`/${command.name}`];
  for (const key of command.positional ?? []) {
    const info = argInfo(shape[key] as z.ZodType);
    const name = `<${toPositionalName(key)}>${info.kind === 'array' ? '...' : ''}`;
    words.push(info.optional ? `[${name}]` : name);
  }
  if (options) words.push('…');
  return words.join(' ');
}

/**
 * Help for one command: summary, usage, each argument and the examples, as plain text (so every
 * platform shows it in one message and writes the commands in its own form).
 */
export function commandHelp(command: AnyCommand<unknown>, say: Translator = translator('en')): DraftCard {
  const shape = (command.args as z.ZodObject).shape as Record<string, z.ZodType>;
  const positional = new Set<string>(command.positional ?? []);
  const visible = Object.entries(shape).filter(([key, schema]) => !argInfo(schema).hidden && key !== '');
  const lines = visible.map(([key, schema]) => {
    const info = argInfo(schema);
    const name = positional.has(key) ? `<${toPositionalName(key)}>` : `--${toFlagName(key)}`;
    const extra = info.choices ? ` ${say.t('help-choices', info.choices.join(', '))}` : '';
    const description = info.descriptionKey ? say.t(info.descriptionKey) : (info.description ?? '');
    return `${name} — ${description}${extra}`.trimEnd();
  });
  const parts = [say.t(summaryKey(command.name)), say.t('help-usage', usageLine(command))];
  if (lines.length > 0) parts.push(lines.join('\n'));
  parts.push(`${say.t('help-examples', command.examples.length)}\n${command.examples.join('\n')}`);
  return {
    title: `/${command.name}`,
    text: parts.join('\n\n'),
    ...(command.guarded ? { footer: say.t('help-guarded') } : {}),
    status: 'info',
    visibility: 'private',
  };
}

/** The commands whose names start with `words` (`media folder`), one line each. */
export function prefixHelp(
  registry: CommandRegistry<unknown>,
  words: readonly string[],
  say: Translator = translator('en'),
): DraftCard {
  const head = words.join(' ');
  const members = registry.all().filter((c) => c.name === head || c.name.startsWith(`${head} `));
  return {
    title: say.t('help-prefix-title', head),
    text: members.map((c) => `${shortUsage(c)} — ${say.t(summaryKey(c.name))}`).join('\n'),
    footer: say.t('help-prefix-footer', members[0]?.name ?? head),
    status: 'info',
    visibility: 'private',
  };
}
