/** Turns a slash command or autocomplete interaction back into a registry command and its arguments. */
import {
  type APIApplicationCommandInteractionDataOption,
  type APIAttachment,
  ApplicationCommandOptionType,
} from 'discord.js';
import { tokenize } from '../../src/core/tokenize';
import type { CommandRoute, OptionBinding } from './manifest';

/** The command an interaction names, with its arguments. */
export interface ParsedCommand {
  /** Registry name, e.g. `jobs show`. */
  name: string;
  args: Record<string, unknown>;
  /** The option being typed (autocomplete only). */
  focused?: { key: string; value: string };
  /** Attachments given in attachment options. */
  attachments: APIAttachment[];
}

/** The data of a chat-input command or autocomplete interaction (the fields used here). */
export interface CommandData {
  name: string;
  options?: APIApplicationCommandInteractionDataOption[];
  resolved?: { attachments?: Record<string, APIAttachment> };
}

/** Parses the interaction's command data; undefined when the command is not in the registry. */
export function parseCommand(
  data: CommandData,
  routes: Map<string, CommandRoute>,
): ParsedCommand | undefined {
  const words = [data.name];
  let options = data.options ?? [];
  for (;;) {
    const nested = options[0];
    if (
      options.length !== 1 ||
      !nested ||
      (nested.type !== ApplicationCommandOptionType.Subcommand &&
        nested.type !== ApplicationCommandOptionType.SubcommandGroup)
    ) {
      break;
    }
    words.push(nested.name);
    options = nested.options ?? [];
  }
  const route = routes.get(words.join(' '));
  if (!route) return undefined;
  const parsed: ParsedCommand = { name: route.name, args: {}, attachments: [] };
  for (const option of options) {
    if (option.type === ApplicationCommandOptionType.Attachment) {
      const attachment = data.resolved?.attachments?.[String(option.value)];
      if (attachment) parsed.attachments.push(attachment);
      continue;
    }
    if (!('value' in option)) continue;
    const binding = route.options.get(option.name);
    if (!binding) continue;
    if ('focused' in option && option.focused) {
      parsed.focused = { key: binding.key, value: String(option.value) };
      continue;
    }
    parsed.args[binding.key] = convert(option.value, binding);
  }
  return parsed;
}

function convert(value: string | number | boolean, binding: OptionBinding): unknown {
  if (binding.kind !== 'array') return value;
  const text = String(value);
  try {
    return tokenize(text).map((token) => token.text);
  } catch {
    return text.split(/\s+/).filter(Boolean);
  }
}
