/**
 * Link unfurls: a link to something Deckhand knows (a tool's page, a build, a task) shown as the
 * card of the command that shows it. Each service's commands recognise their own links; the core
 * decides whether a link is shown (not again in the same conversation within the window) and runs
 * the command as the person who posted the link, so the card says only what they may see.
 */
import type { CardSurface } from './card-surface';
import type { Invocation } from './command';
import { conversationId } from './conversation';
import type { DeliveryDeduper } from './host';
import type { Card } from './reply';

/** A link a service's commands recognise in a message. */
export interface RecognisedLink {
  /** The text as it appeared (the URL, or a bare id such as a task number). */
  text: string;
  /** What the link names, the same however it is written (`tool:mytool`): one unfurl per subject. */
  subject: string;
  /** The command line whose card shows it (`/tool status mytool`). */
  line: string;
}

/** Finds a service's links in a message's text (linear time: one pass of each pattern). */
export type LinkRecogniser = (text: string) => RecognisedLink[];

/** The platform-neutral input of an unfurl: links someone posted, where and who. */
export interface LinksSeen {
  /** The links (URLs), or the text that holds them. */
  texts: readonly string[];
  invocation: Invocation;
}

/** A card to show for one posted link. */
export interface UnfurlCard {
  /** The link's text as posted (a platform that unfurls by URL keys its cards by it). */
  link: string;
  card: Card;
}

/** Runs a command line and answers on a surface (the command runner's `handleText`). */
export type RunLine = (line: string, invocation: Invocation, surface: CardSurface) => Promise<void>;

/** How long a link is not shown again in the same conversation. */
export const UNFURL_WINDOW_SECONDS = 30 * 60;

/** At most this many links of one message are shown (a pasted list of URLs is not a wall of cards). */
export const MAX_UNFURLS = 3;

/** The links every service recognises in `texts`, each subject once, in order of appearance. */
export function recogniseLinks(
  recognisers: readonly LinkRecogniser[],
  texts: readonly string[],
): RecognisedLink[] {
  const found = new Map<string, RecognisedLink & { at: number }>();
  texts.forEach((text, index) => {
    for (const recognise of recognisers) {
      for (const link of recognise(text)) {
        const at = index * 1e6 + text.indexOf(link.text);
        const known = found.get(link.subject);
        if (!known || at < known.at) found.set(link.subject, { ...link, at });
      }
    }
  });
  return [...found.values()].sort((a, b) => a.at - b.at).map(({ at: _at, ...link }) => link);
}

/** A surface that keeps the first card everyone may see and posts nothing (failures are private). */
function keepingSurface(): { surface: CardSurface; card: () => Card | undefined } {
  let kept: Card | undefined;
  const surface: CardSurface = {
    async reply(card) {
      if (!kept && card.visibility !== 'private') kept = card;
      return undefined;
    },
    async update() {},
  };
  return { surface, card: () => kept };
}

/** Decides which posted links are shown, and builds their cards. */
export class LinkUnfurls {
  constructor(
    private readonly deps: {
      recognisers: readonly LinkRecogniser[];
      /** Claims remembered for {@link UNFURL_WINDOW_SECONDS} (atomic: one Redis `SET NX EX`). */
      claims: DeliveryDeduper;
    },
  ) {}

  /** The links Deckhand would show in these texts. */
  recognise(texts: readonly string[]): RecognisedLink[] {
    return recogniseLinks(this.deps.recognisers, texts).slice(0, MAX_UNFURLS);
  }

  /**
   * The cards of the links not shown in this conversation (threads included) within the window.
   * A link whose command shows nothing (a failure, a task that does not exist) is not claimed.
   */
  async cards(seen: LinksSeen, run: RunLine): Promise<UnfurlCard[]> {
    const { platform, workspace, channel } = seen.invocation.conversation;
    const where = conversationId({ platform, workspace, channel });
    const cards: UnfurlCard[] = [];
    for (const link of this.recognise(seen.texts)) {
      if (!(await this.deps.claims.claim(`unfurl:${where}:${link.subject}`))) continue;
      const keeping = keepingSurface();
      await run(link.line, seen.invocation, keeping.surface);
      const card = keeping.card();
      if (card) cards.push({ link: link.text, card });
      else await this.deps.claims.release?.(`unfurl:${where}:${link.subject}`);
    }
    return cards;
  }
}
