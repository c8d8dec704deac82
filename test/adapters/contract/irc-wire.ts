/**
 * What people on IRC see of the bot, for the contract's IRC driver: the lines a client received,
 * matched to the messages the adapter queued (one queued message is one card's post or one of its
 * later versions, sent as one or more lines), and the read-only card pages those lines link to.
 */
import { stripFormatting } from '../../../adapters/irc/text';

/** One message the adapter queued (a card's post, a later version, a Server Admin Log line). */
export interface Queued {
  id: string;
  conversationId: string;
  target: string;
  lines: string[];
  refused: boolean;
}

/** A queued message as it arrived: its pieces on the wire, raw and as shown. */
export interface Arrived {
  message: Queued;
  first: number;
  raw: string[];
}

/** Text for matching pieces to queued lines: what splitting may drop (spaces) and formatting left out. */
const bare = (text: string) => stripFormatting(text).replace(/\s+/g, '');

/**
 * The queued messages found in `received` (one target's lines, in order): each as a contiguous run of
 * lines not yet given to another message, whose text is the message's lines.
 */
export function arrivals(received: string[], messages: Queued[]): Arrived[] {
  const taken = new Array<boolean>(received.length).fill(false);
  const found: Arrived[] = [];
  for (const message of messages) {
    const whole = bare(message.lines.join(''));
    for (let start = 0; start < received.length; start += 1) {
      let text = '';
      let end = start;
      while (end < received.length && !taken[end]) {
        text += bare(received[end] as string);
        end += 1;
        if (!whole.startsWith(text) || text === whole) break;
      }
      if (text !== whole) continue;
      for (let i = start; i < end; i += 1) taken[i] = true;
      found.push({ message, first: start, raw: received.slice(start, end) });
      break;
    }
  }
  return found.sort((a, b) => a.first - b.first);
}

/** The text of an HTML page's body, tags gone and entities decoded. */
function pageText(html: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  return body
    .replace(/<[^>]+>/g, '\n')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** A card page, its files and its picture, as a reader gets them. */
export interface Page {
  text: string;
  files: { name: string; content: string }[];
  picture?: { name: string; data: Buffer };
}

export async function fetchPage(url: string): Promise<Page> {
  const html = await (await fetch(url)).text();
  const origin = new URL(url).origin;
  const files: Page['files'] = [];
  for (const m of html.matchAll(/<a href="(\/cards\/[\w-]{22}\/files\/\d+)">([^<]*)<\/a>/g)) {
    const content = await (await fetch(`${origin}${m[1]}`)).text();
    files.push({ name: pageText(m[2] as string), content });
  }
  const picture = /<a href="(\/cards\/[\w-]{22}\/picture\.png)">([^<]*)<\/a>/.exec(html);
  const data = picture && Buffer.from(await (await fetch(`${origin}${picture[1]}`)).arrayBuffer());
  return {
    text: pageText(html),
    files,
    ...(picture && data ? { picture: { name: pageText(picture[2] as string), data } } : {}),
  };
}

export const CARD_URL = /https?:\/\/\S+\/cards\/[\w-]{22}/g;
