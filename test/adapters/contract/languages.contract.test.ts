/**
 * Each reader's language on every platform, through each real adapter and its fake: a card posted in
 * a conversation set to Hebrew is shown in Hebrew with its tool name and id isolated (FSI … PDI kept by
 * every renderer), and a help button pressed by someone whose own setting is German answers in German
 * — except on Discord and Telegram, whose clients say the reader's language (the fakes' English),
 * which comes first.
 */
import { expect, it } from 'vitest';
import { parseConversationId } from '../../../src/core/conversation';
import { FSI, PDI, t } from '../../../src/i18n/translate';
import { waitFor } from '../../support/wait';
import { describeEachPlatform, postCard } from './each-platform';

describeEachPlatform('languages', (driver) => {
  it('shows a card in the conversation language, tool names and ids isolated', async () => {
    const d = driver();
    const languages = d.app.services.languages;
    if (!languages) throw new Error('no language store');
    await languages.setConversation(d.conversationId, 'he');
    try {
      await postCard(d, {
        title: t('he', 'deploy-card-title', 'mytool'),
        text: t('he', 'deploy-headline-running', 'mytool'),
        footer: t('he', 'deploy-card-footer', '20261128-125241-1xs2qvglzx'),
        status: 'progress',
      });
      // The whole card has arrived (IRC sends its lines one after another), its name and id isolated.
      const headline = `הפריסה של ${FSI}mytool${PDI} מתבצעת.`;
      const id = `${FSI}20261128-125241-1xs2qvglzx${PDI}`;
      await waitFor(() => d.seen().includes(headline) && d.seen().includes(id));
      expect(d.seen()).toContain(headline);
      expect(d.seen()).toContain(id);
    } finally {
      await languages.setConversation(d.conversationId, undefined);
    }
  });

  it("answers a reader's press in their language, not the conversation's: the platform's first, else their /language", async () => {
    const d = driver();
    const languages = d.app.services.languages;
    if (!languages) throw new Error('no language store');
    const { workspace } = parseConversationId(d.conversationId);
    const owner = `${d.platform}:${workspace}:${d.userId('admin')}`;
    await Promise.all([languages.setConversation(d.conversationId, 'he'), languages.setUser(owner, 'de')]);
    try {
      const id = await postCard(d, {
        text: 'Help',
        actions: [{ label: 'Open help', command: 'help', args: { topic: [] } }],
      });
      await d.press(id, 'Open help', 'admin');
      await d.idle();
      // Discord's and Telegram's fakes send the reader's client language (`en-US`, `en`), and Slack's
      // answers `users.info` with `en-US`: the platform's word comes first.
      const saysLanguage = d.platform === 'discord' || d.platform === 'telegram' || d.platform === 'slack';
      const expected = saysLanguage ? 'Deckhand commands' : 'Deckhand-Befehle';
      await waitFor(() => d.seen().includes(expected));
      expect(d.seen()).toContain(expected);
    } finally {
      await Promise.all([
        languages.setConversation(d.conversationId, undefined),
        languages.setUser(owner, undefined),
      ]);
    }
  });
});
