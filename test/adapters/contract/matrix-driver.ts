/** The contract driver of the Matrix adapter (matrix-js-sdk against `test/fakes/matrix`). */
import { NUMBER_KEYS } from '../../../adapters/matrix/render';
import { MX_USERS, startMatrixDeckhand } from '../../fakes/matrix/harness';
import type { ShownMessage } from '../../fakes/matrix/people';
import { waitFor } from '../../support/wait';
import type { ContractDriver, Shown } from './driver';
import { formCommand, pressCommand } from './press-command';

export async function matrixDriver(): Promise<ContractDriver> {
  const t = await startMatrixDeckhand({ commands: [pressCommand as never, formCommand as never] });
  const room = t.people.inviteBot(MX_USERS.admin, 'Contract');
  t.people.join(MX_USERS.stranger, room);
  await waitFor(() => t.people.botJoined(room));
  const conversationId = t.adapter.conversationId(room);
  const prompts = new Set<string>();
  const asShown = (m: ShownMessage): Shown => ({ id: m.eventId, text: m.body, files: [], edits: m.edits });
  /** Messages with the file messages that follow a card counted as its files. */
  const grouped = (messages: ShownMessage[]): Shown[] => {
    const shown: Shown[] = [];
    for (const m of messages) {
      const last = shown.at(-1);
      if (m.file && m.file.msgtype === 'm.file' && last) {
        last.files.push({ name: m.file.name, content: m.file.data.toString('utf8') });
        continue;
      }
      shown.push(asShown(m));
    }
    return shown;
  };
  const sends = () => t.fake.callsOf('sendMessage').filter((c) => c.params.roomId === room);
  const allRooms = () => [...t.fake.state.rooms.keys()];
  return {
    platform: 'matrix',
    app: t.app,
    conversationId,
    // A whole event is at most 65,536 bytes (the fake refuses more); a card's body stays well under it.
    maxMessageChars: 30_000,
    cannot: {},
    async shown() {
      return grouped(t.people.botMessages(room));
    },
    async threadReplies(messageId) {
      return grouped(t.people.botMessages(room).filter((m) => m.thread === messageId));
    },
    async pictures() {
      return t.people
        .botMessages(room)
        .flatMap((m) => (m.file?.msgtype === 'm.image' ? [{ name: m.file.name, data: m.file.data }] : []));
    },
    async inertProblems(text) {
      const last = t.people
        .botMessages(room)
        .filter((m) => !m.file)
        .at(-1);
      if (!last) return ['no message'];
      const event = t.fake.state.rooms.get(room)?.events.find((e) => e.event_id === last.eventId);
      const problems: string[] = [];
      if (!last.body.includes(text)) problems.push('the untrusted text is not shown as written');
      const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
      if (!last.html?.includes(escaped)) problems.push('the untrusted text is not escaped in formatted_body');
      if (/<(b|a)\b/i.test(last.html ?? '')) problems.push('markup took effect in formatted_body');
      const mentions = event?.content['m.mentions'];
      if (JSON.stringify(mentions) !== '{}')
        problems.push(`m.mentions is ${JSON.stringify(mentions)}, not {}`);
      return problems;
    },
    rateLimitNextPost() {
      t.fake.rateLimit('sendMessage', 300);
    },
    postAttempts(text) {
      return sends().filter((c) => JSON.stringify(c.body).includes(text)).length;
    },
    removeBot() {
      t.people.kickBot(MX_USERS.admin, room);
    },
    userId: (who) => MX_USERS[who],
    async press(messageId, label, who) {
      const message = t.people.botMessages(room).find((m) => m.eventId === messageId);
      const number = message && new RegExp(`\\[(\\d+)\\] ${label}\\b`).exec(message.body)?.[1];
      if (!number) throw new Error(`no button ${label} on Matrix message ${messageId}`);
      t.people.react(MX_USERS[who], room, messageId, NUMBER_KEYS[Number(number) - 1] as string);
    },
    async answerForm(who, value) {
      const user = MX_USERS[who];
      const dm = await waitFor(() => t.people.directRoom(user));
      const prompt = await waitFor(() =>
        t.people
          .botMessages(dm)
          .find(
            (m) => m.body.includes('Contract form') && m.body.includes('Answer') && !prompts.has(m.eventId),
          ),
      );
      prompts.add(prompt.eventId);
      t.people.say(user, dm, value);
    },
    async idle() {
      // Every event so far has reached the bot once a sync asked from a position past it.
      const head = t.fake.state.head;
      await waitFor(() => t.fake.callsOf('sync').some((c) => Number(c.query.since ?? -1) >= head));
    },
    seen: () => JSON.stringify(allRooms().flatMap((id) => t.people.botMessages(id).map((m) => m.body))),
    debug: () => JSON.stringify(t.fake.calls.slice(-20).map((c) => [c.operationId, c.status])),
    violations: () => t.fake.violations,
    close: () => t.close(),
  };
}
