/**
 * The flows every reader meets, in English, German and Hebrew, as the terminal and Telegram show them
 * (snapshots): `/help`, a refused tool name, a confirmation question, the deploy card from start to
 * done, and the announcement of a finished deployment; and the secret page. Hebrew isolates the tool names and ids it
 * mixes into its text (FSI … PDI); English output is unchanged by it.
 */
import { describe, expect, it } from 'vitest';
import { PLAIN, renderCardText } from '../../adapters/shell/render';
import { renderCard as renderTelegram } from '../../adapters/telegram/render';
import { deploymentCard } from '../../commands/toolhost/deployment-card';
import { PLAIN_FORM } from '../../src/core/command-form';
import type { Card, DraftCard } from '../../src/core/reply';
import type { Language } from '../../src/i18n/languages';
import { FSI, PDI, translator } from '../../src/i18n/translate';
import type { SecretFormSession } from '../../src/store/links-secret-forms';
import { oauthConfirmPage, oauthResultPage, oauthStartPage } from '../../src/web/pages/oauth';
import { secretExpiredPage, secretFormPage, secretSavedPage } from '../../src/web/pages/secret';
import { readerOf } from '../../src/web/reader';
import { secretPageFields, secretPageIntro, secretPageTitle } from '../../src/web/secret-page-words';
import {
  announcementCard,
  confirmationCard,
  deployCards,
  deployment,
  helpCard,
  invocationIn,
  LANGUAGES,
  refusedToolCard,
} from './flow-cards';

/** A card as a platform gets it (buttons with ids, the language stamped). */
function posted(draft: DraftCard, language: Language): Card {
  const { actions, tool: _tool, ...rest } = draft;
  const buttons = (actions ?? []).map((a, i) => ({ label: a.label, actionId: `a${i}` }));
  return { locale: language, timeZone: 'UTC', ...rest, ...(buttons.length ? { buttons } : {}) };
}

/** The terminal's and Telegram's renderings of a card. */
function shown(card: Card): { terminal: string; telegram: string } {
  const telegram = renderTelegram(card);
  const keyboard = (telegram.keyboard?.inline_keyboard ?? []).flat().map((b) => `[${b.text}]`);
  return {
    terminal: renderCardText(card, PLAIN),
    telegram: [...telegram.parts, keyboard.join(' ')].join('\n'),
  };
}

describe.each(LANGUAGES)('%s', (language) => {
  const say = translator(language);

  it('/help', () => {
    expect(shown(posted(helpCard(say), language))).toMatchSnapshot();
  });

  it('a refused tool name', () => {
    const card = refusedToolCard(invocationIn(language));
    expect(card.locale).toBe(language);
    expect(shown(card)).toMatchSnapshot();
  });

  it('a confirmation question', async () => {
    const publisher = {
      formOf: () => PLAIN_FORM,
      storeAction: async (action: { label: string }) => ({ label: action.label, actionId: 'x' }),
    };
    const card = await confirmationCard(publisher as never, invocationIn(language), say);
    expect(card.locale).toBe(language);
    expect(shown(card)).toMatchSnapshot();
  });

  it('the deploy card, from start to done, and its announcement', () => {
    for (const { status, draft } of deployCards(say))
      expect(shown(posted(draft, language)), status).toMatchSnapshot();
    expect(shown(posted(announcementCard(say), language))).toMatchSnapshot();
  });
});

describe.each(LANGUAGES)('the secret page in %s', (language) => {
  it('is written in the language, with its direction', () => {
    const say = translator(language);
    const session = { kind: 'tool', name: 'Ada', tool: 'mytool' } as SecretFormSession;
    const form = secretFormPage(
      {
        title: secretPageTitle('tool', say),
        intro: secretPageIntro(session, say),
        fields: secretPageFields('tool', say),
        csrf: 'c',
      },
      say,
    );
    expect(form).toContain(`<html lang="${language}" dir="${say.direction}">`);
    expect(form).toContain(`<button type="submit">${say.t('secret-form-save')}</button>`);
    expect({
      form,
      saved: secretSavedPage('the deploy token of mytool', say),
      expired: secretExpiredPage(say),
    }).toMatchSnapshot();
  });
});

describe.each(LANGUAGES)('the OAuth pages in %s', (language) => {
  it('are written in the language, with its direction, the names in bold and isolated', () => {
    const say = translator(language);
    const linked = oauthResultPage(
      { kind: 'linked', login: 'ada-src', chatUser: 'Ada', missing: ['write:repository'] } as never,
      say,
    );
    const confirm = oauthConfirmPage(
      { kind: 'confirm', requester: 'Ada', scopes: [], expiresIn: 300 } as never,
      'token',
      say,
    );
    expect(linked.html).toContain(`<html lang="${language}" dir="${say.direction}">`);
    // In right-to-left text the isolates enclose the bold name.
    const bold = (id: string) => `<strong id="${id}">Ada</strong>`;
    const shown = (id: string) => (language === 'he' ? `${FSI}${bold(id)}${PDI}` : bold(id));
    expect(linked.html).toContain(shown('chat-user'));
    expect(confirm).toContain(shown('requester'));
    expect({
      linked: linked.html,
      confirm,
      used: oauthStartPage({ kind: 'used' } as never, say).html,
    }).toMatchSnapshot();
  });

  it("is the browser's first language Deckhand speaks", () => {
    const request = (header: string) => ({ headers: { 'accept-language': header } }) as never;
    expect(readerOf(request(`fr-CH, ${language};q=0.9, en;q=0.8`)).language).toBe(language);
  });
});

describe('bidi isolation', () => {
  it('isolates tool names and ids in Hebrew text, and leaves English as it was', () => {
    const he = deploymentCard('mytool', deployment('running'), undefined, undefined, translator('he'));
    expect(he.title).toBe(`פריסה של ${FSI}mytool${PDI}`);
    expect(he.footer).toContain(`${FSI}20261128-125241-1xs2qvglzx${PDI}`);
    const en = deploymentCard('mytool', deployment('running'));
    expect(en.title).toBe('Deploy mytool');
    expect(en.text).toBe('Deployment of mytool is running.');
  });

  it('isolates a right-to-left value in left-to-right text', () => {
    expect(translator('de').t('deploy-card-title', 'כלי')).toBe(`Deployment von ${FSI}כלי${PDI}`);
  });

  it('survives every renderer: the terminal and Telegram keep the isolates around the tool name', () => {
    const card = posted(
      deploymentCard('mytool', deployment('running'), undefined, undefined, translator('he')),
      'he',
    );
    const { terminal, telegram } = shown(card);
    expect(terminal).toContain(`${FSI}mytool${PDI}`);
    expect(telegram).toContain(`${FSI}mytool${PDI}`);
  });
});
