/**
 * The flows every reader meets, in English, German and Hebrew, as a person sees them on every
 * platform: through each real adapter and its fake (IRC: a real network), snapshots of what the
 * conversation shows — `/help`, a refused tool name, a confirmation question, the deploy card edited
 * from start to done, and its announcement. Cards posted in the conversation take its language
 * (`/language --here`), stamped by the card publisher; that a reply to one reader takes theirs is
 * the language contract's case (test/adapters/contract/languages.contract.test.ts).
 */
import { expect, it } from 'vitest';
import type { MessageHandle } from '../../src/core/command';
import type { Card, DraftCard } from '../../src/core/reply';
import { translator } from '../../src/i18n/translate';
import type { ContractDriver } from '../adapters/contract/driver';
import { describeEachPlatform, readable } from '../adapters/contract/each-platform';
import { waitFor } from '../support/wait';
import {
  announcementCard,
  confirmationCard,
  DEPLOY_ID,
  deployCards,
  helpCard,
  invocationIn,
  LANGUAGES,
  refusedToolCard,
} from './flow-cards';

/** What changes from run to run (the card page links of IRC) written as a placeholder. */
function steady(text: string): string {
  return text.replace(/https?:\/\/[^\s)>\]]+\/cards\/[\w-]+/g, '<card page>');
}

/** The bot's messages in the conversation after the first `from`, as a person reads them. */
async function since(d: ContractDriver, from: number): Promise<string[]> {
  return (await d.shown()).slice(from).map((m) => steady(readable(m)));
}

/** Waits until the conversation holds more than `count` messages and the last shows `text`. */
async function arrived(d: ContractDriver, count: number, text: string): Promise<string> {
  return waitFor(async () => {
    const shown = await d.shown();
    const last = shown.at(-1);
    return shown.length > count && last && readable(last).includes(text) ? readable(last) : undefined;
  });
}

/** A reply card as it is posted to the conversation (a private one shown in it, for the snapshot). */
function inConversation<C extends Card | DraftCard>(card: C): C {
  const { visibility: _visibility, ...shown } = card;
  return shown as C;
}

describeEachPlatform('the flows in every language', (driver) => {
  for (const language of LANGUAGES) {
    it(`shows them in ${language}`, async () => {
      const d = driver();
      const languages = d.app.services.languages;
      if (!languages) throw new Error('no language store');
      const say = translator(language);
      const messenger = d.app.messengers.for(d.platform);
      await languages.setConversation(d.conversationId, language === 'en' ? undefined : language);
      try {
        const start = (await d.shown()).length;
        const post = async (draft: DraftCard, expected: string) => {
          const count = (await d.shown()).length;
          const handle = await d.app.publisher.post(d.conversationId, inConversation(draft));
          await arrived(d, count, expected);
          return handle as MessageHandle;
        };
        const reply = async (card: Card, expected: string) => {
          const count = (await d.shown()).length;
          await messenger.post(d.conversationId, inConversation(card));
          await arrived(d, count, expected);
        };

        await post(helpCard(say), say.t('help-title'));
        const invocation = invocationIn(language, d.conversationId);
        const refused = refusedToolCard(invocation);
        expect(refused.locale).toBe(language);
        await reply(refused, 'BAD_tool');
        const confirmation = await confirmationCard(d.app.publisher, invocation, say);
        expect(confirmation.locale).toBe(language);
        await reply(confirmation, 'mytool-build-7');

        const [first, ...later] = deployCards(say);
        if (!first) throw new Error('no deploy card');
        const handle = await post(first.draft, 'mytool');
        const states = [await since(d, (await d.shown()).length - 1)];
        for (const { status, draft } of later) {
          await d.app.publisher.update(handle, draft);
          // IRC cannot edit: a later version is a new line only when it says something new (the
          // badge of a pending and a running deployment is the same), so it is awaited once done.
          if (d.cannot.edits && status !== 'successful') continue;
          const words = draft.text ?? '';
          const latest = await waitFor(async () => {
            const last = (await d.shown()).at(-1);
            return last && readable(last).includes(words) ? last : undefined;
          });
          states.push([steady(readable(latest))]);
        }
        await post(announcementCard(say), DEPLOY_ID);

        const shown = await since(d, start);
        // Each card is in the language asked for: its status badge or button in that language's words.
        if (language !== 'en') expect(shown.join('\n')).not.toContain('Deckhand commands');
        expect({ conversation: shown, deployCardStates: states }).toMatchSnapshot();
      } finally {
        await languages.setConversation(d.conversationId, undefined);
      }
    });
  }
});
