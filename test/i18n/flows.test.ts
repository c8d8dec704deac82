/**
 * The flows every reader meets, in English, German and Hebrew, as the terminal and Telegram show them
 * (snapshots): `/help`, a refused tool name, a confirmation question, the deploy card from start to
 * done, and the announcement of a finished deployment; and the secret page. Hebrew isolates the tool names and ids it
 * mixes into its text (FSI … PDI); English output is unchanged by it.
 */
import { describe, expect, it } from 'vitest';
import { PLAIN, renderCardText } from '../../adapters/shell/render';
import { renderCard as renderTelegram } from '../../adapters/telegram/render';
import { HELP_GUIDE } from '../../commands/chat/help-guide';
import { deployCommand } from '../../commands/toolhost/deploy';
import { deploymentCard, deploymentWatch } from '../../commands/toolhost/deployment-card';
import { validateArgs } from '../../src/core/bind';
import type { Invocation } from '../../src/core/command';
import { CommandFailures } from '../../src/core/command-failure';
import { PLAIN_FORM } from '../../src/core/command-form';
import { askConfirmation } from '../../src/core/confirm-question';
import { helpFor } from '../../src/core/help-sections';
import type { Card, DraftCard } from '../../src/core/reply';
import type { Language } from '../../src/i18n/languages';
import { FSI, PDI, translator } from '../../src/i18n/translate';
import { silentLogger } from '../../src/log';
import type { Deployment } from '../../src/services/toolhost';
import { secretExpiredPage, secretFormPage, secretSavedPage } from '../../src/web/pages/secret';
import { commandRegistry } from '../../src/wiring';

const LANGUAGES: readonly Language[] = ['en', 'de', 'he'];
const AT = Date.UTC(2026, 10, 28, 12, 52);

function invocation(language: Language): Invocation {
  return {
    user: { platform: 'chat', id: 'u1', name: 'Ada', workspace: 'w' },
    conversation: { platform: 'chat', workspace: 'w', channel: 'c' },
    conversationId: 'chat:w:c',
    isPrivate: false,
    languages: { reader: language, conversation: language },
  };
}

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

function deployment(status: Deployment['status']): Deployment {
  const done = status === 'successful';
  return {
    deploy_id: '20261128-125241-1xs2qvglzx',
    creation_time: '20261128-125241',
    description: '',
    builds: {
      web: {
        build_id: 'no-build-needed',
        build_status: 'successful',
        build_image: 'img',
        build_long_status: '',
      },
    },
    runs: { web: { run_status: done ? 'successful' : 'pending', run_long_status: '' } },
    tool_config: null,
    status,
    long_status: done ? 'Finished at 2026-11-28T12:53:00Z' : '',
    force_build: false,
    force_run: false,
  } as Deployment;
}

const registry = commandRegistry();

describe.each(LANGUAGES)('%s', (language) => {
  const say = translator(language);

  it('/help', () => {
    const card = posted(helpFor(registry as never, HELP_GUIDE, [], say), language);
    expect(shown(card)).toMatchSnapshot();
  });

  it('a refused tool name', () => {
    let error: unknown;
    try {
      validateArgs(deployCommand as never, { tool: 'BAD_tool' });
    } catch (caught) {
      error = caught;
    }
    const failures = new CommandFailures({
      publisher: { formOf: () => PLAIN_FORM } as never,
      bindings: { get: async () => undefined } as never,
      logger: silentLogger,
    });
    const card = failures.card('deploy', error, invocation(language));
    expect(card.locale).toBe(language);
    expect(shown(card)).toMatchSnapshot();
  });

  it('a confirmation question', async () => {
    const replies: Card[] = [];
    const publisher = {
      formOf: () => PLAIN_FORM,
      storeAction: async (action: { label: string }) => ({ label: action.label, actionId: 'x' }),
    };
    const command = registry.get('build delete');
    if (!command) throw new Error('no /build delete');
    const question =
      command.confirm?.({ tool: 'mytool', id: 'mytool-build-7' } as never, undefined, say) ?? '';
    await askConfirmation(
      publisher as never,
      { command: command.name, tool: 'mytool', args: {}, question },
      command,
      invocation(language),
      { reply: async (card: Card) => void replies.push(card) } as never,
    );
    const card = { timeZone: 'UTC', ...(replies[0] as Card) };
    expect(card.locale).toBe(language);
    expect(shown(card)).toMatchSnapshot();
  });

  it('the deploy card, from start to done, and its announcement', () => {
    for (const status of ['pending', 'running', 'successful'] as const) {
      const draft = deploymentCard('mytool', deployment(status), undefined, undefined, say);
      const card = posted(
        { ...draft, fields: draft.fields?.map((f) => (f.time ? { ...f, time: { at: AT } } : f)) },
        language,
      );
      expect(shown(card), status).toMatchSnapshot();
    }
    const event = {
      tool: 'mytool',
      kind: 'deployment',
      id: '20261128-125241-1xs2qvglzx',
      from: 'running',
      to: 'successful',
      at: AT,
      detail: 'Deployment 20261128-125241-1xs2qvglzx finished successfully.',
      outcome: 'success' as const,
      terminal: true,
    };
    expect(shown(posted(deploymentWatch.announce(event, say), language))).toMatchSnapshot();
  });
});

describe.each(LANGUAGES)('the secret page in %s', (language) => {
  it('is written in the language, with its direction', () => {
    const say = translator(language);
    const form = secretFormPage({ title: 'Deploy token', intro: 'For mytool.', fields: [], csrf: 'c' }, say);
    expect(form).toContain(`<html lang="${language}" dir="${say.direction}">`);
    expect(form).toContain(`<button type="submit">${say.t('secret-form-save')}</button>`);
    expect({
      form,
      saved: secretSavedPage('the deploy token of mytool', say),
      expired: secretExpiredPage(say),
    }).toMatchSnapshot();
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
