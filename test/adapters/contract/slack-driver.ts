/** The contract driver of the Slack adapter (Bolt against `test/fakes/slack`). */
import { conversationId } from '../../../src/core/conversation';
import { startSlackBot, USERS } from '../../fakes/slack/harness';
import type { FakeMessage } from '../../fakes/slack/workspace';
import { waitFor } from '../../support/wait';
import type { ContractDriver, Shown } from './driver';
import { formCommand, pressCommand } from './press-command';

const CHANNEL = 'CCONTRACT';

/** Every text element of a Block Kit message (what Slack displays, markup aside). */
function texts(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) texts(item, out);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.text === 'string') out.push(record.text);
    for (const [key, inner] of Object.entries(record))
      if (key !== 'text' || typeof inner !== 'string') texts(inner, out);
  }
  return out;
}

/** Mrkdwn as Slack shows it: its three escapes decoded. */
function displayed(mrkdwn: string): string {
  return mrkdwn.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

export async function slackDriver(): Promise<ContractDriver> {
  const bot = await startSlackBot();
  bot.app.runner.registry.add(pressCommand as never);
  bot.app.runner.registry.add(formCommand as never);
  let viewsAnswered = 0;
  const id = conversationId({ platform: 'slack', workspace: bot.fake.options.teamId, channel: CHANNEL });
  const shownOf = (m: FakeMessage): Shown => ({
    id: m.ts,
    text: displayed(texts(m.attachments).join('\n')),
    files: bot.fake.uploads
      .filter((u) => u.channel === CHANNEL && u.thread_ts === m.ts)
      .map((u) => ({ name: u.filename, content: u.content })),
    edits: m.versions.length - 1,
  });
  return {
    platform: 'slack',
    app: bot.app,
    conversationId: id,
    // A section's text is at most 3,000 characters; a message holds at most 50 blocks.
    maxMessageChars: 50 * 3000,
    cannot: {},
    async shown() {
      return bot.fake.channelMessages(CHANNEL).map(shownOf);
    },
    async inertProblems(text) {
      const last = bot.fake.channelMessages(CHANNEL).at(-1);
      const raw = texts(last?.attachments ?? []).join('\n');
      const problems: string[] = [];
      // Slack turns `<!channel>`, `<!here>`, `<@U…>` into pings and `<url|label>` into links.
      const live = raw.match(/<[!@#][^>]*>/g);
      if (live) problems.push(`live Slack syntax: ${live.join(' ')}`);
      if (!displayed(raw).includes(text)) problems.push('the untrusted text is not shown as written');
      return problems;
    },
    rateLimitNextPost() {
      bot.fake.script('chat.postMessage', { status: 429, retryAfter: 1 });
    },
    postAttempts(text) {
      return bot.fake
        .callsOf('chat.postMessage')
        .filter((c) => c.body.channel === CHANNEL && JSON.stringify(c.body).includes(text)).length;
    },
    removeBot() {
      bot.fake.notInChannel.add(CHANNEL);
    },
    userId: (who) => USERS[who].id,
    async press(messageId, label, who) {
      const message = bot.fake.messages.get(`${CHANNEL}:${messageId}`);
      if (!message) throw new Error(`no Slack message ${messageId}`);
      const delivery = await bot.driver.click(USERS[who], message, label);
      if (delivery.status !== 200) throw new Error(`Slack click answered ${delivery.status}`);
    },
    async answerForm(who, value) {
      const view = await waitFor(() => bot.fake.views[viewsAnswered]);
      viewsAnswered += 1;
      const delivery = await bot.driver.submit(USERS[who], view, { Answer: value });
      if (delivery.status !== 200) throw new Error(`Slack view submission answered ${delivery.status}`);
    },
    idle: () => bot.settled(),
    async threadReplies(messageId) {
      return bot.fake
        .channelMessages(CHANNEL)
        .filter((m) => m.thread_ts === messageId && m.ts !== messageId)
        .map(shownOf);
    },
    async pictures() {
      return bot.fake.uploads
        .filter((u) => u.channel === CHANNEL && u.filename.endsWith('.png'))
        .map((u) => ({ name: u.filename, data: u.bytes }));
    },
    seen: () => bot.fake.everythingShown(),
    violations: () => bot.fake.violations,
    close: () => bot.close(),
  };
}
