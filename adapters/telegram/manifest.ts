/**
 * The Telegram command menu, generated from the command registry into
 * `manifest/telegram-commands.json` and set with `deckhand register telegram` (setMyCommands, once
 * per scope). Telegram commands are single words, so each command group is one entry (`/build`) and
 * its subcommands are listed in the description. Private chats get every group plus `/cancel` (forms
 * are asked there); group chats leave out groups that mostly work in private only (`/token`).
 */
import type { BotCommand, BotCommandScope, LanguageCode } from 'grammy/types';
import { type AnyCommand, summaryKey } from '../../src/core/command';
import type { CommandRegistry } from '../../src/core/registry';
import { groupDescription, MENU_LANGUAGES } from '../../src/i18n/command-menus';
import { DEFAULT_LANGUAGE, type Language } from '../../src/i18n/languages';
import { t } from '../../src/i18n/translate';
import type { ManifestSpec, RegisterCommands } from '../types';
import { createApi } from './bot';
import { telegramCommandName } from './command-line';

/** The generated file: the commands of each scope. */
export interface TelegramCommandsManifest {
  $comment: string;
  /** Each scope's menu, in English and (with `language_code`) in each other language Deckhand speaks. */
  scopes: { scope: BotCommandScope; language_code?: string; commands: BotCommand[] }[];
}

/** Telegram's limit on a command description. */
const DESCRIPTION_MAX = 256;

const CANCEL: BotCommand = { command: 'cancel', description: t('en', 'command-cancel-description') };

function clip(text: string): string {
  return text.length <= DESCRIPTION_MAX ? text : `${text.slice(0, DESCRIPTION_MAX - 1)}…`;
}

/** A group's entry in `language`: what it does, or its subcommands and where help is. */
function describe(
  group: string,
  commands: AnyCommand<unknown>[],
  language: Language = DEFAULT_LANGUAGE,
): string {
  const own = commands.find((c) => c.name === group);
  const others = commands.filter((c) => c !== own);
  const subcommands = others.map((c) => c.name.slice(group.length + 1));
  const summary = (command: AnyCommand<unknown>) => t(language, summaryKey(command.name));
  if (subcommands.length === 0) return clip(own ? summary(own) : group);
  const [first] = others;
  if (subcommands.length === 1 && !own && first)
    return clip(t(language, 'telegram-menu-one-subcommand', subcommands[0] as string, summary(first)));
  const name = `${group[0]?.toUpperCase()}${group.slice(1)}`;
  const list = subcommands.join(', ');
  return clip(
    own
      ? t(language, 'telegram-menu-group-and-own', summary(own), name, list, group)
      : t(language, 'telegram-menu-group', name, list, group),
  );
}

function mostlyPrivate(commands: AnyCommand<unknown>[]): boolean {
  const privateOnly = commands.filter((c) => /private conversation only/i.test(c.summary)).length;
  return privateOnly * 2 > commands.length;
}

/** Builds the command menu of each scope from the registry (deterministic). */
export function buildTelegramCommands(registry: CommandRegistry<unknown>): TelegramCommandsManifest {
  const groups = registry.groups().map((group) => ({ group, commands: registry.group(group) }));
  const entry = ({ group, commands }: (typeof groups)[number]): BotCommand => ({
    command: telegramCommandName(group),
    description: describe(group, commands),
  });
  const inGroups = groups.filter((g) => !mostlyPrivate(g.commands));
  const localized = MENU_LANGUAGES.flatMap((language) => {
    const localEntry = (g: (typeof groups)[number]): BotCommand => ({
      command: telegramCommandName(g.group),
      description:
        groupDescription(g.group, language, DESCRIPTION_MAX) ?? describe(g.group, g.commands, language),
    });
    const cancel = { command: CANCEL.command, description: t(language, 'command-cancel-description') };
    return [
      {
        scope: { type: 'all_private_chats' as const },
        language_code: language,
        commands: [...groups.map(localEntry), cancel],
      },
      {
        scope: { type: 'all_group_chats' as const },
        language_code: language,
        commands: inGroups.map(localEntry),
      },
    ];
  });
  return {
    $comment:
      'Generated from the command registry by `deckhand manifest telegram`; registered with `deckhand register telegram`. Do not edit.',
    scopes: [
      { scope: { type: 'all_private_chats' }, commands: [...groups.map(entry), CANCEL] },
      { scope: { type: 'all_group_chats' }, commands: inGroups.map(entry) },
      ...localized,
    ],
  };
}

/** `deckhand manifest telegram`. */
export const telegramManifest: ManifestSpec = {
  file: 'telegram-commands.json',
  build: (registry) => buildTelegramCommands(registry),
};

/** `deckhand register telegram`: sets the command menu of each scope with setMyCommands. */
export const registerTelegramCommands: RegisterCommands = async (registry, config, options) => {
  const api = createApi(config);
  const manifest = buildTelegramCommands(registry);
  if (options.guild) options.logger.warn('--guild is for Discord; Telegram commands are set per scope');
  for (const { scope, language_code, commands } of manifest.scopes)
    await api.setMyCommands(commands, {
      scope,
      ...(language_code ? { language_code: language_code as LanguageCode } : {}),
    });
  const me = await api.getMe();
  const counts = manifest.scopes.map(
    (s) =>
      `${s.commands.length} for ${s.scope.type.replaceAll('_', ' ')}${s.language_code ? ` (${s.language_code})` : ''}`,
  );
  return `Registered the commands of @${me.username}: ${counts.join(', ')}.`;
};
