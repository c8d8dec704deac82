/** The contract driver of the Discord adapter (discord.js REST against `test/fakes/discord`). */
import { conversationId } from '../../../src/core/conversation';
import { buttonClick, type FakeInteraction, modalSubmit } from '../../fakes/discord';
import { startDiscordHarness } from '../../fakes/discord/harness';
import { botMessages, button } from '../../fakes/discord/inspect';
import type { FakeMessage } from '../../fakes/discord/store';
import { waitFor } from '../../support/wait';
import type { ContractDriver, Shown } from './driver';
import { formCommand, pressCommand } from './press-command';

const POST = /^\/channels\/\d+\/messages$/;

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value && typeof value === 'object') for (const inner of Object.values(value)) strings(inner, out);
  return out;
}

/** The strings of a message's content and embeds (not component ids). */
function raw(message: FakeMessage): string {
  return [message.content, ...strings(message.embeds)].join('\n');
}

/** Markdown as Discord displays it: backslash escapes and zero-width spaces gone. */
function displayed(markdown: string): string {
  return markdown.replace(/\\(.)/gs, '$1').replaceAll('\u200b', '');
}

export async function discordDriver(): Promise<ContractDriver> {
  const h = await startDiscordHarness({
    mode: 'gateway',
    prepare: (app) => {
      app.runner.registry.add(pressCommand as never);
      app.runner.registry.add(formCommand as never);
    },
  });
  const interactions: FakeInteraction[] = [];
  const channel = h.fake.identity.channelId;
  const id = conversationId({ platform: 'discord', workspace: h.fake.identity.guildId, channel });
  const shownOf = (m: FakeMessage): Shown => ({
    id: m.id,
    text: displayed(raw(m)),
    files: m.attachments.map((a) => ({ name: a.filename, content: a.content })),
    edits: m.history.length - 1,
  });
  return {
    platform: 'discord',
    app: h.app,
    conversationId: id,
    // Content ≤ 2,000 and embeds ≤ 6,000 characters in all (Create Message, discord-openapi.json).
    maxMessageChars: 8000,
    cannot: {
      threads: 'the Discord messenger does not start threads yet: later events are messages of their own',
    },
    async shown() {
      return botMessages(h.fake).map(shownOf);
    },
    async privateShown() {
      // EPHEMERAL (1 << 6): interaction replies only the presser sees.
      return [...h.fake.store.messages.values()].filter((m) => (m.flags & 64) !== 0).map(shownOf);
    },
    async inertProblems(text) {
      const last = botMessages(h.fake).at(-1);
      if (!last) return ['no message'];
      const problems: string[] = [];
      const body = last.history.at(-1) as { allowed_mentions?: { parse?: unknown[] } };
      if (body.allowed_mentions?.parse?.length !== 0) problems.push('pings are not switched off');
      const live = raw(last).match(/@(?:everyone|here)|<[@#][^>]*>/g);
      if (live) problems.push(`live Discord syntax: ${live.join(' ')}`);
      if (!displayed(raw(last)).includes(text)) problems.push('the untrusted text is not shown as written');
      return problems;
    },
    rateLimitNextPost() {
      h.fake.rateLimitNext('POST', POST, 0.2);
    },
    postAttempts(text) {
      return h.fake
        .requestsTo('POST', new RegExp(`^/channels/${channel}/messages$`))
        .filter((r) => JSON.stringify(r.body).includes(text)).length;
    },
    removeBot() {
      // Discord's JSON error code 50001 Missing Access (discord-api-types RESTJSONErrorCodes.MissingAccess).
      for (let i = 0; i < 10; i += 1) h.fake.failNext('POST', POST, 403, 50001, 'Missing Access');
    },
    userId: (who) => (who === 'admin' ? h.adminId : h.strangerId),
    async press(messageId, label, who) {
      const message = h.fake.store.messages.get(messageId);
      if (!message) throw new Error(`no Discord message ${messageId}`);
      const userId = who === 'admin' ? h.adminId : h.strangerId;
      interactions.push(
        h.fake.interact(buttonClick(h.place(userId), button(message, label), { id: message.id })),
      );
    },
    async answerForm(who, value) {
      const click = interactions.at(-1);
      // The press is answered with the modal (interaction callback type 9, MODAL).
      const modal = await waitFor(() => click?.callbacks.find((c) => c.body.type === 9));
      const customId = (modal.body.data as { custom_id: string }).custom_id;
      const userId = who === 'admin' ? h.adminId : h.strangerId;
      interactions.push(h.fake.interact(modalSubmit(h.place(userId), customId, { answer: value })));
    },
    async idle() {
      // A press is decided (run or dropped as a double click) before Discord gets its answer.
      await waitFor(() => interactions.every((i) => i.callbacks.length > 0));
    },
    async threadReplies() {
      return [];
    },
    async pictures() {
      // Only an attachment an embed shows (`image.url` = `attachment://<filename>`) is a picture.
      return [...h.fake.store.messages.values()].flatMap((m) =>
        m.attachments
          .filter((a) =>
            m.embeds.some((e) => (e.image as { url?: string })?.url === `attachment://${a.filename}`),
          )
          .map((a) => ({ name: a.filename, data: a.data })),
      );
    },
    seen: () => JSON.stringify([...h.fake.store.messages.values()].map((m) => m.history)),
    debug: () =>
      h.fake.requests
        .slice(-6)
        .map((r) => `${r.method} ${r.path} ${r.status} ${JSON.stringify(r.body)?.slice(0, 400)}`)
        .join('\n'),
    violations: () => h.fake.violations,
    close: () => h.close(),
  };
}
