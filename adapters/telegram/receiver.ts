/**
 * What the bot does with updates, the same for long polling and webhooks:
 * 1. a duplicate delivery (same `update_id`) is dropped before anything happens;
 * 2. a button press is answered at once (`answerCallbackQuery`);
 * 3. per-chat ordering (`sequentialize`): the updates of one chat are handled one after another;
 * 4. a double click (same person, button and message within a few seconds) is dropped, and the
 *    short action id is dispatched as the person who pressed it;
 * 5. a message is a command (`/cmd`, `/cmd@bot`, a file's caption), an answer to an open form, or
 *    (in a private chat) gets a hint; files come with it as streamable references.
 */
import { sequentialize } from '@grammyjs/runner';
import type { Bot, Context } from 'grammy';
import type { Message, User } from 'grammy/types';
import type { Logger } from 'pino';
import type { ClickGuard } from '../../src/core/clicks';
import type { Invocation } from '../../src/core/command';
import type { CommandHandoff } from '../../src/core/command-handoff';
import type { CommandInput } from '../../src/core/command-job';
import { StoreUnavailableError } from '../../src/core/errors';
import type { ConversationMover, DeliveryDeduper } from '../../src/core/host';
import { type LanguageStore, readerLanguage } from '../../src/core/languages';
import { type Translator, translator } from '../../src/i18n/translate';
import { parseCommandLine } from './command-line';
import { type FileSource, incomingFiles, tooBigMessage } from './files';
import { FORM_CONTROL_PREFIX } from './form-cards';
import type { TelegramForms } from './forms';
import { anonymousSenderText, followMigration, migrationOf, sentAsChat } from './group-events';
import type { TelegramMessenger } from './messenger';
import { invocationOf, type TelegramPlace, telegramSurface } from './surface';

/**
 * The words of the person who sent an update at `where`: the language their Telegram app says, else
 * (one Deckhand does not speak) their `/language` setting, else the chat's, else English.
 */
async function wordsOf(deps: Pick<ReceiverDeps, 'languages'>, where: TelegramPlace): Promise<Translator> {
  const invocation = invocationOf(where);
  return translator(await readerLanguage(invocation.user, invocation.conversationId, deps.languages));
}

/** What the receiver needs. */
export interface ReceiverDeps {
  /** Runs acknowledged commands here (`all`) or queues them for a worker (`web`). */
  handoff: CommandHandoff;
  messenger: TelegramMessenger;
  forms: TelegramForms;
  deduper: DeliveryDeduper;
  botId: string;
  botUsername(): string;
  files: FileSource;
  /** Registry groups by Telegram command name (`tool_bind` → `tool-bind`). */
  groups: Map<string, string>;
  /** The core's double-click guard (presses of one button by one person within its window run once). */
  clicks: ClickGuard;
  /** Follows a group upgraded to a supergroup (its stored state moves to the new id). */
  conversations?: ConversationMover | undefined;
  /** The `/language` settings: where the Telegram app's language is not Deckhand's, they decide. */
  languages?: LanguageStore | undefined;
  logger: Logger;
}

function topicOf(message: Message | undefined): number | undefined {
  return message?.is_topic_message ? message.message_thread_id : undefined;
}

function place(deps: ReceiverDeps, message: Message, user: User, replyTo?: number): TelegramPlace {
  const threadId = topicOf(message);
  return {
    botId: deps.botId,
    chat: message.chat,
    user,
    ...(threadId ? { threadId } : {}),
    ...(replyTo ? { replyTo } : {}),
  };
}

/** Hands a command on (to a worker, or to the command runner here); `key` is the update's delivery key. */
export function handOff(
  deps: Pick<ReceiverDeps, 'handoff' | 'messenger' | 'forms' | 'botUsername'>,
  key: string,
  input: CommandInput,
  invocation: Invocation,
  where: TelegramPlace,
): Promise<void> {
  return deps.handoff.submit({ key, platform: 'telegram', input, invocation, place: { ...where } }, () =>
    telegramSurface(deps, where),
  );
}

/** The delivery key of an update (the one the receiver claims). */
function updateKey(ctx: Context, deps: ReceiverDeps): string {
  return `telegram:${deps.botId}:update:${ctx.update.update_id}`;
}

async function onCallback(ctx: Context, deps: ReceiverDeps): Promise<void> {
  const query = ctx.callbackQuery;
  if (!query?.data) return;
  const message = query.message;
  if (!message || !('chat' in message) || message.date === 0) return;
  if (query.data.startsWith(FORM_CONTROL_PREFIX)) {
    await deps.forms.control(query.from, query.data, message.message_id);
    return;
  }
  const click = {
    platform: 'telegram' as const,
    message: `${deps.botId}:${message.chat.id}:${message.message_id}`,
    action: query.data,
    user: String(query.from.id),
  };
  if (!(await deps.clicks.first(click))) {
    deps.logger.info({ user: query.from.id }, 'telegram double click ignored');
    return;
  }
  const where = place(deps, message as Message, query.from, message.message_id);
  const input = { kind: 'action' as const, actionId: query.data };
  await handOff(deps, updateKey(ctx, deps), input, invocationOf(where), where);
}

async function onMessage(ctx: Context, deps: ReceiverDeps): Promise<void> {
  const message = ctx.message;
  const from = ctx.from;
  if (!message || !from) return;
  const migration = migrationOf(message);
  if (migration) return followMigration(deps, migration);
  const isPrivate = message.chat.type === 'private';
  const line = parseCommandLine(message.text ?? message.caption ?? '', deps.botUsername());
  if (sentAsChat(message)) {
    // Nobody to check permissions for: say so when the command is Deckhand's, stay quiet otherwise.
    if (message.is_automatic_forward || line.kind !== 'command') return;
    if (!line.addressed && !deps.groups.has(line.name)) return;
    const where = place(deps, message, from, message.message_id);
    await telegramSurface(deps, where).reply({ text: anonymousSenderText(message), status: 'warning' });
    return;
  }
  if (from.is_bot) return;
  const where = place(deps, message, from, message.message_id);
  const surface = telegramSurface(deps, where);
  if (line.kind === 'other-bot') return;
  if (line.kind === 'none') {
    if (!isPrivate) return;
    if (message.text !== undefined && (await deps.forms.answer(from, message))) return;
    const say = await wordsOf(deps, where);
    const hint = message.text ? say.t('telegram-help-hint') : say.t('telegram-file-caption-hint');
    await surface.reply({ text: hint, status: 'info', locale: say.language });
    return;
  }
  if (line.name === 'cancel') {
    if (!(await deps.forms.cancelOpen(from)) && isPrivate) {
      const say = await wordsOf(deps, where);
      await surface.reply({
        text: say.t('telegram-nothing-to-cancel'),
        status: 'info',
        locale: say.language,
      });
    }
    return;
  }
  if (line.name === 'start') {
    const form = /^f_([0-9A-Za-z]{1,32})$/.exec(line.rest);
    if (form && (await deps.forms.resume(from, form[1] as string))) return;
    if (form) {
      const say = await wordsOf(deps, where);
      await surface.reply({ text: say.t('telegram-form-expired'), status: 'info', locale: say.language });
    }
    await handOff(
      deps,
      updateKey(ctx, deps),
      { kind: 'text', text: '/help --welcome' },
      invocationOf(where),
      where,
    );
    return;
  }
  const group = deps.groups.get(line.name);
  // In a group, an unknown `/command` without @bot is probably for another bot: stay quiet.
  if (!group && !isPrivate && !line.addressed) return;
  const { files, oversized } = incomingFiles(message, deps.files);
  if (oversized.length > 0) {
    const say = await wordsOf(deps, where);
    const text = oversized.map((file) => tooBigMessage(file, deps.files.limit, say)).join('\n\n');
    await surface.reply({ text, status: 'warning', locale: say.language });
    return;
  }
  const invocation: Invocation = { ...invocationOf(where), ...(files.length ? { files } : {}) };
  const commandText = `/${group ?? line.name}${line.rest ? ` ${line.rest}` : ''}`;
  await handOff(deps, updateKey(ctx, deps), { kind: 'text', text: commandText }, invocation, where);
}

/**
 * The update could not be recorded (Deckhand's store is away): whoever addressed the bot — a
 * command for it, a message in its private chat, a button press — hears that nothing was done.
 * The update is still acknowledged, so Telegram does not deliver it again and it never runs later.
 */
async function refuse(ctx: Context, deps: ReceiverDeps, error: StoreUnavailableError): Promise<void> {
  const query = ctx.callbackQuery;
  if (query) {
    await ctx.answerCallbackQuery({ text: error.message, show_alert: true });
    return;
  }
  const message = ctx.message;
  if (!message || !ctx.from || ctx.from.is_bot) return;
  const line = parseCommandLine(message.text ?? message.caption ?? '', deps.botUsername());
  const isPrivate = message.chat.type === 'private';
  const forUs = isPrivate || (line.kind === 'command' && (line.addressed || deps.groups.has(line.name)));
  if (!forUs) return;
  const where = place(deps, message, ctx.from, message.message_id);
  await telegramSurface(deps, where).reply({ text: error.message, status: 'danger' });
}

/**
 * Installs the update handling on a bot (see the module comment). The duplicate check and the
 * answer to a button press come before the per-chat queue, so a press is answered at once even while
 * a slow command of the same chat is still running.
 */
export function installReceiver(bot: Bot, deps: ReceiverDeps): void {
  bot.use(async (ctx, next) => {
    let first: boolean;
    try {
      first = await deps.deduper.claim(updateKey(ctx, deps));
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      deps.logger.warn({ update: ctx.update.update_id }, 'telegram: store unavailable, update refused');
      await refuse(ctx, deps, error).catch((replyError: unknown) =>
        deps.logger.warn({ err: replyError }, 'telegram: could not say the store is unavailable'),
      );
      return;
    }
    if (!first) {
      deps.logger.info({ update: ctx.update.update_id }, 'telegram duplicate update ignored');
      return;
    }
    await next();
  });
  bot.on('callback_query', async (ctx, next) => {
    await ctx.answerCallbackQuery().catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'could not answer a telegram callback query');
    });
    await next();
  });
  bot.use(sequentialize((ctx: Context) => (ctx.chat ?? ctx.from)?.id.toString()));
  bot.on('callback_query:data', (ctx) => onCallback(ctx, deps));
  bot.on('message', (ctx) => onMessage(ctx, deps));
}
