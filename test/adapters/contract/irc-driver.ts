/**
 * The contract driver of the IRC adapter, against a real IRC network (InspIRCd + Atheme, started for
 * the driver: `test/support/irc-network.ts`). Two people identified with services are in the channel:
 * the admin (its operator: the first to join it, so it can kick the bot) and a stranger. What they see
 * is what the contract reads: the bot's lines as their clients receive them, formatting codes
 * stripped, grouped into the cards the adapter queued (one queued message is one card's post or one
 * of its later versions), and the read-only web page a line links to (the whole card, its files and
 * its picture), fetched as a reader would.
 */
import type { IrcAdapter } from '../../../adapters/irc/adapter';
import { ircConversationId } from '../../../adapters/irc/surface';
import { stripFormatting } from '../../../adapters/irc/text';
import { parseConversationId } from '../../../src/core/conversation';
import { type IrcDeckhand, startIrcDeckhand } from '../../support/irc-deckhand';
import { startTestIrcNetwork } from '../../support/irc-network';
import { type Human, identifiedHuman } from '../../support/irc-users';
import { waitFor } from '../../support/wait';
import type { ContractDriver, Presser, Shown } from './driver';
import { type Arrived, arrivals, CARD_URL, fetchPage, type Page, type Queued } from './irc-wire';
import { formCommand, pressCommand } from './press-command';

const CHANNEL = '#contract';
/** How long a queued line may take to reach the people on a busy machine. */
const DELIVERY_MS = 60_000;

/**
 * What takes effect in IRC text: colour and bold codes, a CTCP ACTION, and a line break followed by a
 * raw command (sent as is, the server would run it: the bot would say the marker in the channel).
 */
const CONTROLS = ` \x0304,12red\x03 \x02bold\x02 \x01ACTION waves\x01\r\nPRIVMSG ${CHANNEL} :INJECTED-LINE`;

/** Starts the test network, its two people and Deckhand with the IRC adapter; the driver over them. */
export async function ircDriver(): Promise<ContractDriver> {
  // Fakelag off (a high threshold) and a quick pace: the contract's dozens of cards in reasonable time.
  // The pace at the defaults against the server's own flood limits is irc-delivery's and irc-commands'.
  const network = await startTestIrcNetwork({ floodThreshold: 1000 });
  const people: Human[] = [];
  let deckhand: IrcDeckhand | undefined;
  try {
    const admin = await identifiedHuman(network, 'admin');
    people.push(admin);
    await admin.join(CHANNEL);
    const stranger = await identifiedHuman(network, 'stranger');
    people.push(stranger);
    deckhand = await startIrcDeckhand(network, {
      channels: [CHANNEL],
      commands: [pressCommand as never, formCommand as never],
      env: { ADMINS: `irc:${admin.account}`, IRC_FLOOD_BURST: '10', IRC_FLOOD_INTERVAL_MS: '200' },
    });
    await stranger.join(CHANNEL);
    return await driverOf(deckhand, { admin, stranger }, async () => {
      for (const person of people) await person.quit();
      await deckhand?.close();
      await network.stop();
    });
  } catch (error) {
    for (const person of people) await person.quit().catch(() => undefined);
    await deckhand?.close().catch(() => undefined);
    await network.stop();
    throw error;
  }
}

async function driverOf(
  deckhand: IrcDeckhand,
  humans: Record<Presser, Human & { account: string }>,
  stop: () => Promise<void>,
): Promise<ContractDriver> {
  const adapter = deckhand.adapter as IrcAdapter;
  const link = adapter.link;
  if (!link) throw new Error('the IRC adapter holds no connection');
  const bot = () => link.client.user.nick;
  const conversationId = ircConversationId(adapter.network, CHANNEL);
  const violations: string[] = [];
  let closing = false;

  // What the adapter queued, in order (refused posts too: a gone channel's).
  const queued: Queued[] = [];
  const messenger = adapter.messenger;
  const queue = messenger.queue.bind(messenger);
  messenger.queue = async (conversation, id, lines) => {
    const entry: Queued = {
      id,
      conversationId: conversation,
      target: parseConversationId(conversation).channel,
      lines,
      refused: false,
    };
    queued.push(entry);
    try {
      await queue(conversation, id, lines);
    } catch (error) {
      entry.refused = true;
      throw error;
    }
  };
  // What the real server would not take: a line past 512 bytes (it cuts it silently), and being
  // disconnected (for flooding or anything else) while the contract runs.
  const raw = link.client.raw.bind(link.client);
  link.client.raw = (...args: unknown[]) => {
    const line = String(args.join(' '));
    const self = link.self();
    const size = Buffer.byteLength(`:${self.nick}!~${self.username}@${self.host} ${line}\r\n`);
    if (line.startsWith('PRIVMSG ') && size > 512)
      violations.push(`a ${size}-byte line: ${line.slice(0, 80)}`);
    return raw(...(args as Parameters<typeof raw>));
  };
  link.client.on('socket close', () => {
    if (!closing) violations.push('the server closed the connection');
  });

  // Lines typed at the bot by the people, and lines of theirs the bot received (for idle()).
  let typed = 0;
  let received = 0;
  const nicks = new Set(Object.values(humans).map((h) => h.nick));
  link.client.on('privmsg', (event: { nick: string }) => {
    if (nicks.has(event.nick)) received += 1;
  });
  const type = (who: Presser, target: string, text: string) => {
    typed += 1;
    humans[who].say(target, text);
  };

  // Card pages, fetched as soon as a line links to one (seen() reads them without waiting).
  const pages = new Map<string, Promise<Page>>();
  const fetched = new Map<string, Page>();
  const pageOf = (url: string): Promise<Page> => {
    let page = pages.get(url);
    if (!page) {
      page = fetchPage(url);
      pages.set(url, page);
      void page.then((p) => fetched.set(url, p)).catch(() => undefined);
    }
    return page;
  };
  for (const human of Object.values(humans)) {
    human.client.on('privmsg', (event: { nick: string; message: string }) => {
      if (event.nick !== bot()) return;
      for (const url of stripFormatting(event.message).match(CARD_URL) ?? []) void pageOf(url);
    });
  }

  /** The bot's lines to `target` as `who` received them (a channel, or their private query). */
  const wire = (who: Human, target: string) =>
    who.seen
      .filter((s) => s.nick === bot() && s.target.toLowerCase() === target.toLowerCase())
      .map((s) => s.message);
  /** Where each target's lines are watched: the channel and the admin's query by the admin. */
  const watcher = (target: string) =>
    target.toLowerCase() === humans.stranger.nick.toLowerCase() ? humans.stranger : humans.admin;
  /** The distinct messages queued for `target` and not refused. */
  const queuedFor = (target: string) => {
    const ids = new Set<string>();
    return queued.filter((q) => {
      if (q.refused || q.target.toLowerCase() !== target.toLowerCase() || ids.has(q.id)) return false;
      ids.add(q.id);
      return true;
    });
  };
  /** Waits until every message queued for `target` has arrived (a gone channel's may never), then its arrivals. */
  const delivered = async (target: string): Promise<Arrived[]> => {
    let last: Arrived[] = [];
    try {
      return await waitFor(async () => {
        const messages = queuedFor(target);
        last = arrivals(wire(watcher(target), target), messages);
        const missing = messages.filter((m) => !last.some((a) => a.message === m));
        for (const m of missing) if (!(await messenger.isGone(m.conversationId))) return undefined;
        return last;
      }, DELIVERY_MS);
    } catch {
      const missing = queuedFor(target).filter((m) => !last.some((a) => a.message === m));
      throw new Error(`queued lines never reached ${target}: ${JSON.stringify(missing.slice(0, 3))}`);
    }
  };
  /** The card id of a queued message (`card-<id>` or `card-<id>-<version>`), else its queue id. */
  const idOf = (q: Queued) => (q.id.startsWith('card-') ? q.id.slice(5, 27) : q.id);
  const shownOf = async (a: Arrived): Promise<Shown & { target: string }> => {
    const lines = a.raw.map(stripFormatting);
    const url = lines.join(' ').match(CARD_URL)?.[0];
    const page = url ? await pageOf(url) : undefined;
    return {
      id: idOf(a.message),
      target: a.message.target,
      text: lines.join('\n'),
      lines,
      files: page?.files ?? [],
      edits: 0,
      ...(page ? { page: page.text } : {}),
    };
  };
  const shownIn = async (target: string) => Promise.all((await delivered(target)).map(shownOf));
  const privately = async () => [
    ...(await shownIn(humans.admin.nick)),
    ...(await shownIn(humans.stranger.nick)),
  ];
  const everywhere = async () => [...(await shownIn(CHANNEL)), ...(await privately())];

  // The text budget of a line in the channel, once the bot knows its own host (shown on joining).
  await waitFor(() => link.self().host || undefined);
  const self = link.self();
  const budget =
    512 - Buffer.byteLength(`:${self.nick}!~${self.username}@${self.host} PRIVMSG ${CHANNEL} :\r\n`);

  const usedPrompts = new Set<string>();
  return {
    platform: 'irc',
    app: deckhand.app,
    conversationId,
    maxMessageChars: budget,
    cannot: {
      edits:
        'IRC cannot edit a message: a card’s later version is a new short line; long-running cards post start and end only',
      nativeButtons:
        'IRC has no buttons: a numbered choice is pressed by typing `!press N`, a deliberate line: each press runs',
      rateLimits:
        'IRC has no rate-limit answer to wait out: the bot paces its own lines (IRC_FLOOD_*), so a burst arrives whole and in order',
      threads: 'IRC has no threads: later events are lines of their own',
    },
    async shown() {
      return shownIn(CHANNEL);
    },
    privateShown: privately,
    async threadReplies() {
      return [];
    },
    async pictures() {
      const pictures: { name: string; data: Buffer }[] = [];
      for (const m of await everywhere()) {
        const url = m.text.match(CARD_URL)?.[0];
        const picture = url && (await pageOf(url)).picture;
        if (picture) pictures.push(picture);
      }
      return pictures;
    },
    controls: CONTROLS,
    async inertProblems(text) {
      const last = (await delivered(CHANNEL)).at(-1);
      if (!last) return ['no message'];
      const problems: string[] = [];
      if (wire(humans.admin, CHANNEL).some((l) => stripFormatting(l).startsWith('INJECTED-LINE')))
        problems.push('a line break in the text started a command of its own');
      // The bot's only formatting is the bold of its own status badge; anything else came from the text.
      const own = last.raw.map((l) => l.replace(/\x02\[[^\x02\]]*\]\x02/g, ''));
      if (own.some((l) => /[\x00-\x1f\x7f]/.test(l)))
        problems.push('a control character (formatting, CTCP, line break) reached the channel');
      if (!last.raw.map(stripFormatting).join('\n').includes(text))
        problems.push('the untrusted text is not shown as written');
      return problems;
    },
    rateLimitNextPost() {
      throw new Error('IRC has no rate-limit answer (see cannot.rateLimits)');
    },
    postAttempts(text) {
      return queued.filter((q) => q.conversationId === conversationId && q.lines.join('\n').includes(text))
        .length;
    },
    async removeBot() {
      // The admin joined first, so it is the channel's operator.
      humans.admin.client.raw(`KICK ${CHANNEL} ${bot()} :removed by the contract`);
      await waitFor(() => messenger.isGone(conversationId));
    },
    userId: (who) => humans[who].account,
    async press(messageId, label, who) {
      const button = new RegExp(`\\[(\\d+)\\] ${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=\\s|$)`);
      const message = await waitFor(
        async () =>
          (await everywhere()).filter((m) => m.id === messageId && button.test(m.text)).at(-1) ?? undefined,
        DELIVERY_MS,
      );
      const number = button.exec(message.text)?.[1] as string;
      // In a private query the press is typed there, to the bot.
      const target = message.target.toLowerCase() === CHANNEL ? CHANNEL : bot();
      type(who, target, `!press ${number}`);
    },
    async answerForm(who, value) {
      const prompt = await waitFor(
        async () =>
          (await shownIn(humans[who].nick)).find(
            (m) => m.text.includes('Contract form') && m.text.includes('Answer') && !usedPrompts.has(m.id),
          ),
        DELIVERY_MS,
      );
      usedPrompts.add(prompt.id);
      type(who, bot(), value);
    },
    async idle() {
      await waitFor(() => received >= typed || undefined, DELIVERY_MS);
      await adapter.settled();
      await everywhere();
    },
    seen: () => {
      const lines = [
        ...wire(humans.admin, CHANNEL),
        ...wire(humans.admin, humans.admin.nick),
        ...wire(humans.stranger, humans.stranger.nick),
      ].map(stripFormatting);
      return [...lines, ...[...fetched.values()].map((p) => p.text)].join('\n');
    },
    debug: () =>
      JSON.stringify({
        queued: queued.slice(-6).map((q) => [q.id, q.target, q.refused, q.lines]),
        channel: wire(humans.admin, CHANNEL).slice(-6),
      }),
    violations: () => violations,
    async close() {
      closing = true;
      await stop();
    },
  };
}
