/**
 * The generated parts of `docs/`: the command reference, written from the command registry (every
 * command's summary, usage, arguments, examples, permission and confirmation), and the table of
 * environment variables, written from the config schema. `npm run docs` writes them;
 * `test/repo/docs.test.ts` fails while a checked-in copy is stale.
 */
import type { z } from 'zod';
import { PLATFORMS } from '../adapters/platforms';
import { ALL_COMMANDS } from '../commands';
import { HELP_GUIDE } from '../commands/chat/help-guide';
import { envTable } from '../src/config-docs';
import type { AnyCommand } from '../src/core/command';
import { usageLine } from '../src/core/help';
import { argInfo, toFlagName, toPositionalName } from '../src/core/schema-info';

/** Markers around the generated table in `docs/configuration.md`. */
export const ENV_TABLE_START = '<!-- env-table:start -->';
export const ENV_TABLE_END = '<!-- env-table:end -->';

const PERMISSION: Record<AnyCommand['permission'], string> = {
  read: 'anyone in the conversation (or only maintainers with `READ_ACCESS=maintainers`)',
  write: 'an admin or a maintainer of the tool',
  admin: 'an admin',
};

/** Text of one Markdown table cell. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** What a guarded command's help says (`guarded: true`). */
const GUARDED_NOTE =
  'Refused while the tool is locked (`/tool lock`) or inside one of its freeze windows (`/tool freeze`).';

/** One command's entry: summary, usage, arguments, examples, who may run it. */
function commandEntry(command: AnyCommand): string {
  const shape = (command.args as z.ZodObject).shape as Record<string, z.ZodType>;
  const positional = new Set<string>(command.positional ?? []);
  const lines = [`### \`/${command.name}\``, '', command.summary, '', '```', usageLine(command), '```'];
  const args = Object.entries(shape).filter(([key, schema]) => key !== '' && !argInfo(schema).hidden);
  if (args.length > 0) {
    lines.push('', '| Argument | Meaning |', '| --- | --- |');
    for (const [key, schema] of args) {
      const info = argInfo(schema);
      const name = positional.has(key) ? `<${toPositionalName(key)}>` : `--${toFlagName(key)}`;
      const choices = info.choices ? ` One of: ${info.choices.map((c) => `\`${c}\``).join(', ')}.` : '';
      const optional = info.optional ? ' (optional)' : '';
      lines.push(`| \`${name}\`${optional} | ${cell(`${info.description ?? ''}${choices}`.trim())} |`);
    }
  }
  lines.push('', `Examples: ${command.examples.map((e) => `\`${e}\``).join(', ')}`);
  const who = [`Who may run it: ${PERMISSION[command.permission]}.`];
  if (command.confirm) who.push('Asks for confirmation with a button first.');
  if (command.guarded) who.push(GUARDED_NOTE);
  if (command.secretArgs?.length) who.push('Its secret arguments are never logged, echoed or audited.');
  lines.push('', who.join(' '));
  return lines.join('\n');
}

/** The platform where every command is typed after one namespaced slash command. */
const NAMESPACED = PLATFORMS.find((platform) => platform.commandNamespace) ?? PLATFORMS[0];

/** `docs/commands.md`: every command of the registry, by help section and group. */
export function commandReference(commands: readonly AnyCommand[] = ALL_COMMANDS as AnyCommand[]): string {
  const groupOf = (command: AnyCommand) => command.name.split(' ')[0] as string;
  const listed = new Set(HELP_GUIDE.sections.flatMap((s) => Object.keys(s.groups)));
  const sections = [
    ...HELP_GUIDE.sections.map((s) => ({ title: s.title, groups: Object.keys(s.groups) })),
    {
      title: 'Help and other commands',
      groups: [...new Set(commands.map(groupOf))].filter((g) => !listed.has(g)),
    },
  ];
  const out = [
    '# Command reference',
    '',
    '<!-- Generated from the command registry by `npm run docs`; do not edit by hand. -->',
    '',
    `Every command Deckhand knows, as \`/help <command>\` shows it. On ${NAMESPACED.displayName} every command is typed after`,
    'the one slash command (`/deckhand deploy mytool`, see `SLACK_COMMAND`); on the terminal without',
    'the slash. `<tool>` may be left out in a conversation bound with `/tool bind <tool>`.',
  ];
  for (const section of sections) {
    const entries = section.groups.flatMap((g) => commands.filter((c) => groupOf(c) === g));
    if (entries.length === 0) continue;
    out.push('', `## ${section.title}`);
    for (const command of entries) out.push('', commandEntry(command));
  }
  return `${out.join('\n')}\n`;
}

/** `docs/configuration.md` with its generated table replaced by the config schema's. */
export function withEnvTable(configuration: string): string {
  const pattern = new RegExp(`${ENV_TABLE_START}\\n[\\s\\S]*?\\n${ENV_TABLE_END}`);
  if (!pattern.test(configuration)) throw new Error(`docs/configuration.md lacks ${ENV_TABLE_START}`);
  return configuration.replace(pattern, () => `${ENV_TABLE_START}\n${envTable()}\n${ENV_TABLE_END}`);
}
