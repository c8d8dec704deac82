/**
 * Discord application commands generated from the command registry: one command per group
 * (`/deploy`, `/build`, …), subcommands (and subcommand groups for three-word names), typed options
 * with choices and required flags, autocomplete where the platform can list values, and an
 * attachment option for commands that take files. {@link commandRoutes} is the reverse mapping used
 * to turn an interaction back into a registry command and its arguments.
 */
import {
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
  type APIApplicationCommandSubcommandOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  Locale,
  type RESTPutAPIApplicationCommandsJSONBody,
} from 'discord.js';
import type { z } from 'zod';
import type { AnyCommand } from '../../src/core/command';
import type { CommandRegistry } from '../../src/core/registry';
import { type ArgInfo, argInfo, toFlagName } from '../../src/core/schema-info';
import { groupDescription as describedAs, MENU_LANGUAGES } from '../../src/i18n/command-menus';
import { DEFAULT_LANGUAGE, type Language } from '../../src/i18n/languages';
import { isMessageKey, t } from '../../src/i18n/translate';

/** How an option of a Discord command maps onto an argument of a registry command. */
export interface OptionBinding {
  /** Argument key in the command's zod schema. */
  key: string;
  kind: ArgInfo['kind'];
}

/** A registry command as Discord sees it. */
export interface CommandRoute {
  /** Registry name, e.g. `jobs show` (Discord sends the same words as command/subcommand names). */
  name: string;
  /** Discord option name → argument. */
  options: Map<string, OptionBinding>;
  /** Name of the attachment option, when the command takes files. */
  fileOption?: string;
}

/**
 * What a command that takes files declares (read structurally until the core's command definition
 * carries it): `files: { description, required? }` adds an attachment option named `file`.
 */
interface FilesDeclaration {
  description?: string;
  required?: boolean;
}

/** Name of the attachment option of commands that take a file. */
export const FILE_OPTION = 'file';

const MAX_DESCRIPTION = 100;

function filesOf(command: AnyCommand<unknown>): FilesDeclaration | undefined {
  const files = (command as { files?: unknown }).files;
  return files && typeof files === 'object' ? (files as FilesDeclaration) : undefined;
}

/** Discord option name of an argument key: `forceBuild` → `force-build` (lower case, ≤ 32). */
export function discordOptionName(key: string): string {
  return toFlagName(key).toLowerCase().slice(0, 32);
}

function describe(text: string | undefined, fallback: string): string {
  const value = (text ?? '').trim() || fallback;
  return value.length <= MAX_DESCRIPTION ? value : `${value.slice(0, MAX_DESCRIPTION - 1)}…`;
}

function shapeOf(command: AnyCommand<unknown>): Record<string, z.ZodType> {
  return (command.args as z.ZodObject).shape as Record<string, z.ZodType>;
}

/** The options of one registry command, required ones first (Discord's rule). */
function commandOptions(command: AnyCommand<unknown>): APIApplicationCommandBasicOption[] {
  const options: APIApplicationCommandBasicOption[] = [];
  for (const [key, schema] of Object.entries(shapeOf(command))) {
    const info = argInfo(schema);
    if (info.hidden) continue;
    // `tool` may be left out in a channel bound with /tool bind; the command runner fills it in.
    const required = !info.optional && key !== 'tool';
    const base = { name: discordOptionName(key), required };
    const description =
      info.kind === 'array'
        ? describe(t(DEFAULT_LANGUAGE, 'discord-option-separate-spaces', info.description ?? key), key)
        : describe(info.description, key);
    if (info.kind === 'boolean') {
      options.push({ ...base, description, type: ApplicationCommandOptionType.Boolean });
    } else if (info.kind === 'number') {
      options.push(
        info.integer
          ? { ...base, description, type: ApplicationCommandOptionType.Integer }
          : { ...base, description, type: ApplicationCommandOptionType.Number },
      );
    } else if (info.kind === 'enum' && info.choices && info.choices.length <= 25) {
      options.push({
        ...base,
        description,
        type: ApplicationCommandOptionType.String,
        choices: info.choices.map((choice) => ({ name: choice, value: choice })),
      });
    } else {
      const autocomplete = info.kind === 'string' && info.completes !== undefined;
      options.push({
        ...base,
        description,
        type: ApplicationCommandOptionType.String,
        ...(autocomplete ? { autocomplete: true } : {}),
      });
    }
  }
  const files = filesOf(command);
  if (files) {
    options.push({
      name: FILE_OPTION,
      description: describe(
        files.description && isMessageKey(files.description)
          ? t(DEFAULT_LANGUAGE, files.description)
          : files.description,
        t(DEFAULT_LANGUAGE, 'discord-option-file'),
      ),
      type: ApplicationCommandOptionType.Attachment,
      required: files.required === true,
    });
  }
  return [...options.filter((o) => o.required), ...options.filter((o) => !o.required)];
}

function groupDescription(group: string, members: AnyCommand<unknown>[]): string {
  const only = members.length === 1 ? members[0] : undefined;
  if (only && only.name === group) return describe(only.summary, group);
  const subs = members.map((c) => c.name.split(' ').slice(1).join(' '));
  return describe(`${group[0]?.toUpperCase()}${group.slice(1)}: ${subs.join(', ')}`, group);
}

/**
 * Discord's locale of each catalog language it has (it has no Hebrew or Arabic: readers of those
 * see the English descriptions, and Deckhand's answers still follow their `/language`).
 */
export const DISCORD_LOCALES: Partial<Record<Language, Locale>> = { de: Locale.German };

/** A group's description in each language Discord has; names stay English (the command language). */
function describedIn(group: string): Partial<Record<Locale, string>> | undefined {
  const entries = MENU_LANGUAGES.flatMap((language) => {
    const locale = DISCORD_LOCALES[language];
    const text = locale ? describedAs(group, language, MAX_DESCRIPTION) : undefined;
    return locale && text ? [[locale, text] as const] : [];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** The application commands for bulk overwrite (`PUT /applications/{id}/commands`). */
export function buildDiscordCommands(
  registry: CommandRegistry<unknown>,
): RESTPutAPIApplicationCommandsJSONBody {
  return registry.groups().map((group) => {
    const members = registry.group(group);
    const bare = members.find((c) => c.name === group);
    if (bare && members.length > 1) {
      throw new Error(
        `/${group} is both a command and a group of subcommands; Discord cannot show both. Rename one of them.`,
      );
    }
    const options: APIApplicationCommandOption[] = bare
      ? commandOptions(bare)
      : subcommandTree(group, members);
    const localized = describedIn(group);
    return {
      name: group,
      description: groupDescription(group, members),
      ...(localized ? { description_localizations: localized } : {}),
      type: ApplicationCommandType.ChatInput,
      integration_types: [ApplicationIntegrationType.GuildInstall],
      contexts: [InteractionContextType.Guild, InteractionContextType.BotDM],
      ...(options.length ? { options } : {}),
    };
  });
}

function subcommand(command: AnyCommand<unknown>, name: string): APIApplicationCommandSubcommandOption {
  const options = commandOptions(command);
  return {
    type: ApplicationCommandOptionType.Subcommand,
    name,
    description: describe(command.summary, name),
    ...(options.length ? { options } : {}),
  };
}

function subcommandTree(group: string, members: AnyCommand<unknown>[]): APIApplicationCommandOption[] {
  const out: APIApplicationCommandOption[] = [];
  const nested = new Map<string, APIApplicationCommandSubcommandOption[]>();
  for (const command of members) {
    const words = command.name.split(' ').slice(1);
    if (words.length === 1) {
      out.push(subcommand(command, words[0] as string));
    } else {
      const [middle, leaf] = words as [string, string];
      let list = nested.get(middle);
      if (!list) {
        list = [];
        nested.set(middle, list);
      }
      list.push(subcommand(command, leaf));
    }
  }
  for (const [middle, subcommands] of nested) {
    if (out.some((o) => o.name === middle)) {
      throw new Error(
        `/${group} ${middle} is both a subcommand and a subcommand group; Discord cannot show both.`,
      );
    }
    out.push({
      type: ApplicationCommandOptionType.SubcommandGroup,
      name: middle,
      description: describe(`${middle}: ${subcommands.map((s) => s.name).join(', ')}`, middle),
      options: subcommands,
    });
  }
  return out;
}

/** Registry command name → how its Discord options map back to arguments. */
export function commandRoutes(registry: CommandRegistry<unknown>): Map<string, CommandRoute> {
  const routes = new Map<string, CommandRoute>();
  for (const command of registry.all()) {
    const options = new Map<string, OptionBinding>();
    for (const [key, schema] of Object.entries(shapeOf(command))) {
      const info = argInfo(schema);
      if (!info.hidden) options.set(discordOptionName(key), { key, kind: info.kind });
    }
    routes.set(command.name, {
      name: command.name,
      options,
      ...(filesOf(command) ? { fileOption: FILE_OPTION } : {}),
    });
  }
  return routes;
}
