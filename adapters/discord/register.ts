/** `deckhand register discord [--guild ID]`: bulk-overwrites the application's commands. */
import { REST } from 'discord.js';
import type { Config } from '../../src/config';
import type { CommandRegistry } from '../../src/core/registry';
import type { RegisterCommands } from '../types';
import { DiscordApi } from './api';
import { buildDiscordCommands } from './manifest';
import { restOptions } from './rest';

/** Registers the generated commands globally, or in one guild (instant; handy while testing). */
export const registerDiscordCommands: RegisterCommands = async (
  registry: CommandRegistry<unknown>,
  config: Config,
  options,
) => {
  if (!config.DISCORD_TOKEN || !config.DISCORD_APPLICATION_ID) {
    throw new Error('Set DISCORD_TOKEN and DISCORD_APPLICATION_ID to register the Discord commands.');
  }
  const rest = new REST(restOptions(config)).setToken(config.DISCORD_TOKEN);
  const api = new DiscordApi(rest, config.DISCORD_APPLICATION_ID);
  const registered = await api.putCommands(buildDiscordCommands(registry), options.guild);
  const names = registered.map((command) => `/${command.name}`).join(', ');
  options.logger.info({ count: registered.length, guild: options.guild }, 'discord commands registered');
  return `Registered ${registered.length} Discord commands ${options.guild ? `in guild ${options.guild}` : 'globally'}: ${names}.`;
};
