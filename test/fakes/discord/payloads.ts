/**
 * Builders of the interaction payloads Discord sends (gateway INTERACTION_CREATE `d`, or the body of
 * an HTTP interactions request), typed against discord-api-types so they stay honest.
 */
import type {
  APIApplicationCommandInteractionDataOption,
  APIAttachment,
  APIChatInputApplicationCommandInteraction,
  APIInteractionGuildMember,
  APIMessage,
  APIUser,
} from 'discord.js';
import { interactionToken, snowflake } from './store';

/** Who acts and where. */
export interface InteractionPlace {
  applicationId: string;
  /** Absent for a DM with the bot. */
  guildId?: string;
  channelId: string;
  user: { id: string; username: string; globalName?: string };
}

/** An option value of a slash command; a `{ attachment }` becomes an attachment option. */
export type OptionValue =
  | string
  | number
  | boolean
  | { attachment: { filename: string; url: string; size: number; contentType?: string } };

function apiUser(place: InteractionPlace): APIUser {
  return {
    id: place.user.id,
    username: place.user.username,
    discriminator: '0',
    global_name: place.user.globalName ?? null,
    avatar: null,
  };
}

function member(place: InteractionPlace): APIInteractionGuildMember {
  return {
    user: apiUser(place),
    roles: [],
    permissions: '2248473465835073',
    joined_at: new Date(Date.now() - 86_400_000).toISOString(),
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    nick: null,
    avatar: null,
    premium_since: null,
  } as unknown as APIInteractionGuildMember;
}

function envelope(place: InteractionPlace) {
  const common = {
    id: snowflake(),
    application_id: place.applicationId,
    token: interactionToken(),
    version: 1 as const,
    locale: 'en-US',
    app_permissions: '2248473465835073',
    entitlements: [],
    authorizing_integration_owners: { '0': place.guildId ?? '0' },
    attachment_size_limit: 10_485_760,
    channel_id: place.channelId,
  };
  if (place.guildId) {
    return {
      ...common,
      guild_id: place.guildId,
      guild_locale: 'en-US',
      guild: { id: place.guildId, locale: 'en-US', features: [] },
      channel: {
        id: place.channelId,
        type: 0,
        guild_id: place.guildId,
        name: 'ops',
        nsfw: false,
        flags: 0,
        position: 0,
        permissions: '2248473465835073',
      },
      member: member(place),
      context: 0,
    };
  }
  return {
    ...common,
    channel: { id: place.channelId, type: 1, flags: 0, recipients: [apiUser(place)] },
    user: apiUser(place),
    context: 1,
  };
}

function optionType(value: OptionValue): number {
  if (typeof value === 'object') return 11;
  if (typeof value === 'boolean') return 5;
  if (typeof value === 'number') return Number.isInteger(value) ? 4 : 10;
  return 3;
}

function commandData(
  command: string,
  options: Record<string, OptionValue>,
  focused?: string,
): { data: APIChatInputApplicationCommandInteraction['data'] } {
  const [name, ...path] = command.split(' ') as [string, ...string[]];
  const attachments: Record<string, APIAttachment> = {};
  let leaf: APIApplicationCommandInteractionDataOption[] = Object.entries(options).map(([key, value]) => {
    if (typeof value === 'object') {
      const id = snowflake();
      attachments[id] = {
        id,
        filename: value.attachment.filename,
        size: value.attachment.size,
        url: value.attachment.url,
        proxy_url: value.attachment.url,
        ...(value.attachment.contentType ? { content_type: value.attachment.contentType } : {}),
      };
      return { type: 11, name: key, value: id } as APIApplicationCommandInteractionDataOption;
    }
    return {
      type: optionType(value),
      name: key,
      value,
      ...(focused === key ? { focused: true } : {}),
    } as APIApplicationCommandInteractionDataOption;
  });
  for (const sub of [...path].reverse()) {
    const type = sub === path[path.length - 1] ? 1 : 2;
    leaf = [{ type, name: sub, options: leaf } as APIApplicationCommandInteractionDataOption];
  }
  return {
    data: {
      id: snowflake(),
      name,
      type: 1,
      options: leaf,
      ...(Object.keys(attachments).length ? { resolved: { attachments } } : {}),
    } as APIChatInputApplicationCommandInteraction['data'],
  };
}

/** A slash command, e.g. `slashCommand(place, 'jobs show', { tool: 'mytool', job: 'web' })`. */
export function slashCommand(
  place: InteractionPlace,
  command: string,
  options: Record<string, OptionValue> = {},
) {
  return { ...envelope(place), type: 2 as const, ...commandData(command, options) };
}

/** An autocomplete request for the `focused` option while the user types. */
export function autocomplete(
  place: InteractionPlace,
  command: string,
  options: Record<string, OptionValue>,
  focused: string,
) {
  return { ...envelope(place), type: 4 as const, ...commandData(command, options, focused) };
}

/** A click on a button with `customId` on `message`. */
export function buttonClick(
  place: InteractionPlace,
  customId: string,
  message: { id: string; flags?: number; channelId?: string },
) {
  const full: Partial<APIMessage> = {
    id: message.id,
    channel_id: message.channelId ?? place.channelId,
    type: 0,
    content: '',
    embeds: [],
    components: [],
    attachments: [],
    flags: message.flags ?? 0,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    author: { id: '1', username: 'Deckhand', discriminator: '0', global_name: null, avatar: null, bot: true },
  };
  return {
    ...envelope(place),
    type: 3 as const,
    message: full,
    data: { custom_id: customId, component_type: 2 },
  };
}

/** A submitted modal (each value in a Label-wrapped text input, as current clients send). */
export function modalSubmit(place: InteractionPlace, customId: string, values: Record<string, string>) {
  return {
    ...envelope(place),
    type: 5 as const,
    data: {
      custom_id: customId,
      components: Object.entries(values).map(([key, value], index) => ({
        type: 18,
        id: index * 2 + 1,
        component: { type: 4, id: index * 2 + 2, custom_id: key, value },
      })),
    },
  };
}

/** Discord's endpoint check. */
export function ping(applicationId: string) {
  return {
    id: snowflake(),
    application_id: applicationId,
    token: interactionToken(),
    type: 1 as const,
    version: 1 as const,
  };
}
