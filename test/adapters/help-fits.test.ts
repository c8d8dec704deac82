import { describe, expect, it } from 'vitest';
import { renderCard as renderDiscord } from '../../adapters/discord/render';
import { renderCardLines } from '../../adapters/irc/render';
import { renderCard as renderMatrix } from '../../adapters/matrix/render';
import type { PlatformName } from '../../adapters/platforms';
import { PLAIN, renderCardText } from '../../adapters/shell/render';
import { renderCard as renderSlack } from '../../adapters/slack/render';
import { renderCard as renderTelegram } from '../../adapters/telegram/render';
import { HELP_GUIDE } from '../../commands/chat/help-guide';
import { cardInForm, namespacedForms } from '../../src/core/command-form';
import type { Platform } from '../../src/core/conversation';
import { helpFor, welcomeHelp } from '../../src/core/help-sections';
import type { Card, DraftCard } from '../../src/core/reply';
import { LANGUAGES } from '../../src/i18n/languages';
import { t, translator } from '../../src/i18n/translate';
import { cardPage } from '../../src/web/pages/card';
import { commandRegistry } from '../../src/wiring';

const registry = commandRegistry();
const forms = namespacedForms(new Map([['slack', 'deckhand']]), registry.groups());

/** A help card as the command runner hands it to an adapter: in the platform's form, buttons with ids. */
function asPosted(draft: DraftCard, platform: Platform): Card {
  const { actions, tool: _tool, ...rest } = draft;
  const card = cardInForm(rest, forms(platform));
  return { ...card, buttons: (actions ?? []).map((a, i) => ({ label: a.label, actionId: `a${i}` })) };
}

/** The whole text a person sees of a rendered card, and whether it fitted in one message. */
const RENDERERS: Record<PlatformName, (card: Card) => { fits: boolean; text: string }> = {
  slack(card) {
    const message = renderSlack(card);
    return { fits: message.files.length === 0, text: JSON.stringify(message.attachments) };
  },
  discord(card) {
    const message = renderDiscord(card);
    return { fits: message.files.length === 0, text: JSON.stringify(message.body.embeds) };
  },
  telegram(card) {
    const message = renderTelegram(card);
    return {
      fits: message.parts.length === 1 && message.documents.length === 0,
      text: message.parts.join(''),
    };
  },
  matrix(card) {
    const message = renderMatrix(card);
    return { fits: message.attachments.length === 0, text: message.content.body };
  },
  irc(card) {
    // Three short lines in the channel; the whole card on its web page behind the link.
    const lines = renderCardLines(
      card,
      (card.buttons ?? []).map((_, i) => i + 1),
      () => 'https://x/cards/id',
    );
    return { fits: lines.length <= 3, text: `${lines.join('\n')}\n${cardPage(card, '/cards/id')}` };
  },
  shell(card) {
    const text = renderCardText(
      card,
      PLAIN,
      (card.buttons ?? []).map((_, i) => i + 1),
    );
    return { fits: text.split('\n').length <= 40, text };
  },
};

const PLATFORMS = Object.keys(RENDERERS) as PlatformName[];
const ALL_TOPICS: string[][] = [
  [],
  ...HELP_GUIDE.sections.map((s) => [s.id]),
  ...registry.groups().map((g) => [g]),
  ...registry.all().map((c) => c.name.split(' ')),
  ['media', 'folder'],
  ['source', 'import'],
];

describe('/help on every platform renderer', () => {
  it.each(PLATFORMS)('%s: /help fits in one message and names the main commands', (platform) => {
    const card = asPosted(helpFor(registry, HELP_GUIDE, []), platform);
    const shown = RENDERERS[platform](card);
    expect(shown.fits).toBe(true);
    const prefix = platform === 'slack' ? '/deckhand ' : '/';
    for (const group of ['deploy', 'build', 'jobs', 'logs'])
      expect(shown.text).toContain(`${prefix}${group}`);
    if (platform !== 'slack') expect(shown.text).not.toContain('/deckhand');
    expect(`${card.text}${card.fields?.map((f) => f.value).join('')}`.length).toBeLessThan(800);
  });

  it.each(PLATFORMS)('%s: every section, group and command help fits in one message', (platform) => {
    const tooBig = ALL_TOPICS.filter((topic) => {
      const card = asPosted(helpFor(registry, HELP_GUIDE, topic), platform);
      return !RENDERERS[platform](card).fits;
    });
    expect(tooBig.map((t) => t.join(' '))).toEqual([]);
  });

  it.each(PLATFORMS)('%s: the welcome fits, with three first commands and buttons into help', (platform) => {
    const card = asPosted(welcomeHelp(HELP_GUIDE), platform);
    const shown = RENDERERS[platform](card);
    expect(shown.fits).toBe(true);
    expect(card.text?.match(/<tool>/g)?.length).toBe(3);
    expect(card.buttons?.map((b) => b.label)).toEqual([
      'All commands',
      ...HELP_GUIDE.sections.map((s) => t('en', s.title)),
    ]);
  });

  const IN_LANGUAGES = PLATFORMS.flatMap((platform) =>
    LANGUAGES.map((language) => [platform, language] as const),
  );
  it.each(IN_LANGUAGES)(
    '%s, in %s: /help, every section and group, and the welcome fit in one message',
    (platform, language) => {
      const say = translator(language);
      const topics = [[], ...HELP_GUIDE.sections.map((s) => [s.id]), ...registry.groups().map((g) => [g])];
      const tooBig = topics.filter((topic) => {
        const card = { ...asPosted(helpFor(registry, HELP_GUIDE, topic, say), platform), locale: language };
        return !RENDERERS[platform](card).fits;
      });
      expect(tooBig.map((topic) => topic.join(' '))).toEqual([]);
      const welcome = { ...asPosted(welcomeHelp(HELP_GUIDE, say), platform), locale: language };
      expect(RENDERERS[platform](welcome).fits).toBe(true);
      expect(welcome.title).toBe(say.t('help-welcome-title'));
    },
  );

  it('writes commands in Slack’s one-command form only on Slack', () => {
    const help = helpFor(registry, HELP_GUIDE, ['deploy']);
    expect(asPosted(help, 'slack').text).toContain('Usage: /deckhand deploy <tool>');
    expect(asPosted(help, 'slack').text).toContain('/deckhand deploy mytool');
    expect(asPosted(help, 'telegram').text).toContain('Usage: /deploy <tool>');
    const path = { text: 'or PUT /tool/mytool/deployment/token, see https://x.org/deploy and /deployment.' };
    expect(cardInForm(path, forms('slack')).text).toBe(
      'or PUT /tool/mytool/deployment/token, see https://x.org/deploy and /deckhand deployment.',
    );
  });

  it('lists every command group under a section (a new group would show under "More")', () => {
    const overview = helpFor(registry, HELP_GUIDE, []);
    expect(overview.fields?.map((f) => f.label)).not.toContain('More');
  });
});
