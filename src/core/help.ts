import type { z } from 'zod';
import type { AnyCommand } from './command';
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

/** Help for one command: usage, summary, each argument, examples. */
export function commandHelp(command: AnyCommand<unknown>): DraftCard {
  const shape = (command.args as z.ZodObject).shape as Record<string, z.ZodType>;
  const positional = new Set<string>(command.positional ?? []);
  const visible = Object.entries(shape).filter(([, schema]) => !argInfo(schema).hidden);
  const lines = visible.map(([key, schema]) => {
    const info = argInfo(schema);
    const name = positional.has(key) ? `<${toPositionalName(key)}>` : `--${toFlagName(key)}`;
    const extra = info.choices ? ` (one of: ${info.choices.join(', ')})` : '';
    return `${name}  ${info.description ?? ''}${extra}`.trimEnd();
  });
  return {
    title: `/${command.name}`,
    text: command.summary,
    code: { text: [usageLine(command), '', ...lines].join('\n') },
    fields: [{ label: 'Examples', value: command.examples.join('\n') }],
    status: 'info',
    visibility: 'private',
  };
}

/** Help for a group (`/help build`) or for everything (`/help`). */
export function registryHelp(registry: CommandRegistry<unknown>, group?: string): DraftCard {
  const commands = group ? registry.group(group) : registry.all();
  const text = commands.map((c) => `/${c.name} — ${c.summary}`).join('\n');
  return {
    title: group ? `/${group} commands` : 'Deckhand commands',
    code: { text },
    footer: 'Type /help <command> for its arguments and examples.',
    status: 'info',
    visibility: 'private',
  };
}
