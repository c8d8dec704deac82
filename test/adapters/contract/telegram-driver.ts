/** The contract driver of the Telegram adapter (grammY against `test/fakes/telegram`). */
import { telegramConversationId } from '../../../adapters/telegram/ids';
import type { FakeMessage } from '../../fakes/telegram';
import { startTelegramDeckhand } from '../../fakes/telegram-harness';
import { waitFor } from '../../support/wait';
import type { ContractDriver, Shown } from './driver';
import { formCommand, pressCommand } from './press-command';

export async function telegramDriver(): Promise<ContractDriver> {
  const t = await startTelegramDeckhand({ commands: [pressCommand as never, formCommand as never] });
  // Forms are asked in the user's private chat with the bot, which the user opens with /start.
  for (const user of [t.users.admin, t.users.stranger]) {
    const dm = t.fake.privateChat(user);
    t.fake.sendText(user, dm, '/start');
    await waitFor(() => t.fake.botMessages(dm.id).length > 0);
  }
  const prompts = new Set<number>();
  const notices = new Set<number>();
  const callbacks: string[] = [];
  const chat = t.fake.group('Contract');
  const id = telegramConversationId(String(t.fake.state.bot.id), chat.id);
  const sends = () =>
    t.fake.calls.filter(
      (c) =>
        (c.method === 'sendMessage' || c.method === 'sendDocument') && Number(c.params.chat_id) === chat.id,
    );
  return {
    platform: 'telegram',
    app: t.app,
    conversationId: id,
    // A message's text is at most 4,096 characters after entity parsing (core.telegram.org/bots/api#sendmessage).
    maxMessageChars: 4096,
    cannot: {},
    async shown() {
      // A card's documents follow it as messages of their own; they count as the card's files.
      const shown: Shown[] = [];
      for (const m of t.fake.botMessages(chat.id) as FakeMessage[]) {
        const last = shown.at(-1);
        if (m.document && last) {
          last.files.push({ name: m.document.fileName, content: m.document.content?.toString('utf8') ?? '' });
          continue;
        }
        shown.push({ id: String(m.messageId), text: m.text, files: [], edits: m.versions.length - 1 });
      }
      return shown;
    },
    async threadReplies(messageId) {
      return (t.fake.botMessages(chat.id) as FakeMessage[])
        .filter((m) => m.replyTo === Number(messageId))
        .map((m) => ({ id: String(m.messageId), text: m.text, files: [], edits: m.versions.length - 1 }));
    },
    async pictures() {
      return (t.fake.botMessages(chat.id) as FakeMessage[]).flatMap((m) =>
        m.photo?.content ? [{ name: `photo-${m.messageId}`, data: m.photo.content }] : [],
      );
    },
    async inertProblems(text) {
      const last = t.fake
        .botMessages(chat.id)
        .filter((m) => !m.document)
        .at(-1);
      if (!last) return ['no message'];
      const start = last.text.indexOf(text);
      if (start < 0) return ['the untrusted text is not shown as written'];
      // Markup that took effect inside the untrusted text would be an entity there (bold, link, …).
      return last.entities
        .filter((e) => e.offset < start + text.length && e.offset + e.length > start)
        .map((e) => `markup took effect: ${e.type}`);
    },
    rateLimitNextPost() {
      t.fake.rateLimit('sendMessage', { retryAfter: 1 });
    },
    postAttempts(text) {
      return sends().filter((c) => JSON.stringify(c.params).includes(text)).length;
    },
    removeBot() {
      // What the Bot API answers once the bot was removed from a supergroup.
      t.fake.fault('sendMessage', {
        times: 10,
        code: 403,
        description: 'Forbidden: bot was kicked from the supergroup chat',
      });
    },
    userId: (who) => String(t.users[who].id),
    async press(messageId, label, who) {
      const message = t.fake.botMessages(chat.id).find((m) => String(m.messageId) === messageId);
      if (!message) throw new Error(`no Telegram message ${messageId}`);
      callbacks.push(t.fake.click(t.users[who], message, label).callbackId);
    },
    async answerForm(who, value) {
      const user = t.users[who];
      const dm = t.fake.privateChat(user);
      const prompt = await waitFor(() =>
        t.fake
          .botMessages(dm.id)
          .find(
            (m) => m.text.includes('Contract form') && m.text.includes('Answer') && !prompts.has(m.messageId),
          ),
      );
      prompts.add(prompt.messageId);
      // The form is open once the group was told so (the prompt goes out just before it is stored).
      const notice = await waitFor(() =>
        t.fake
          .botMessages(chat.id)
          .find((m) => m.text.includes('I sent you a private message') && !notices.has(m.messageId)),
      );
      notices.add(notice.messageId);
      t.fake.sendText(user, dm, value);
    },
    async idle() {
      // Updates of one chat are handled in order; a press is answered before its work starts.
      await waitFor(() => callbacks.every((id) => t.fake.state.callbacks.get(id)?.answeredAt !== undefined));
    },
    seen: () =>
      JSON.stringify(t.fake.calls.filter((c) => c.method !== 'getUpdates').map((c) => [c.method, c.params])),
    violations: () => t.fake.violations,
    close: () => t.close(),
  };
}
