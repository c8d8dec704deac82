/**
 * The cards of the flows every reader meets, written in one language: `/help`, a refused tool name
 * (a validation error), a confirmation question, the deploy card from start to done and its
 * announcement. Shared by the renderer snapshots (`flows.test.ts`) and the platform snapshots
 * (`platforms.test.ts`).
 */
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
import type { Translator } from '../../src/i18n/translate';
import { silentLogger } from '../../src/log';
import type { Deployment } from '../../src/services/toolhost';
import { commandRegistry } from '../../src/wiring';

/** The three languages of the snapshots. */
export const LANGUAGES: readonly Language[] = ['en', 'de', 'he'];

/** The time on every card (12:52 UTC on a Saturday). */
export const AT = Date.UTC(2026, 10, 28, 12, 52);

/** The id of the snapshots' deployment. */
export const DEPLOY_ID = '20261128-125241-1xs2qvglzx';

const registry = commandRegistry();

/** An invocation by Ada in conversation `conversationId`, read in `language`. */
export function invocationIn(language: Language, conversationId = 'chat:w:c'): Invocation {
  const [platform = 'chat', workspace = 'w', channel = 'c'] = conversationId.split(':');
  return {
    user: { platform: platform as never, id: 'u1', name: 'Ada', workspace },
    conversation: { platform: platform as never, workspace, channel },
    conversationId,
    isPrivate: false,
    languages: { reader: language, conversation: language },
  };
}

/** The `/help` card. */
export function helpCard(say: Translator): DraftCard {
  return helpFor(registry as never, HELP_GUIDE, [], say);
}

/** The card of `/deploy BAD_tool`: the tool name is refused before anything runs. */
export function refusedToolCard(invocation: Invocation): Card {
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
  return failures.card('deploy', error, invocation);
}

/** The publisher a confirmation needs: where its buttons are stored and how commands are written. */
export type ConfirmationPublisher = Parameters<typeof askConfirmation>[0];

/** The question `/build delete mytool mytool-build-7` asks, as it is replied (buttons stored by `publisher`). */
export async function confirmationCard(
  publisher: ConfirmationPublisher,
  invocation: Invocation,
  say: Translator,
): Promise<Card> {
  const command = registry.get('build delete');
  if (!command) throw new Error('no /build delete');
  const question = command.confirm?.({ tool: 'mytool', id: 'mytool-build-7' } as never, undefined, say) ?? '';
  const replies: Card[] = [];
  await askConfirmation(
    publisher,
    { command: command.name, tool: 'mytool', args: {}, question },
    command,
    invocation,
    { reply: async (card: Card) => void replies.push(card) } as never,
  );
  const [card] = replies;
  if (!card) throw new Error('no confirmation was asked');
  return { timeZone: 'UTC', ...card };
}

/** A deployment of mytool in `status` (one web component, nothing to build). */
export function deployment(status: Deployment['status']): Deployment {
  const done = status === 'successful';
  return {
    deploy_id: DEPLOY_ID,
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

/** The deploy card's three states, from start to done, with its times at {@link AT}. */
export function deployCards(say: Translator): { status: string; draft: DraftCard }[] {
  return (['pending', 'running', 'successful'] as const).map((status) => {
    const draft = deploymentCard('mytool', deployment(status), undefined, undefined, say);
    const fields = draft.fields?.map((f) => (f.time ? { ...f, time: { at: AT } } : f));
    return { status, draft: { ...draft, fields } };
  });
}

/** The announcement of the finished deployment to a subscribed conversation. */
export function announcementCard(say: Translator): DraftCard {
  return deploymentWatch.announce(
    {
      tool: 'mytool',
      kind: 'deployment',
      id: DEPLOY_ID,
      from: 'running',
      to: 'successful',
      at: AT,
      detail: `Deployment ${DEPLOY_ID} finished successfully.`,
      outcome: 'success' as const,
      terminal: true,
    },
    say,
  );
}
