import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import { ACTION_PREFIX, LINK_PREFIX } from './blocks';
import { FORM_CALLBACK_ID } from './forms';

/** The interactive payload fields that say whose it is. */
interface InteractionBody {
  type?: string;
  callback_id?: string;
  actions?: { action_id?: string }[];
  view?: { callback_id?: string };
}

/**
 * True when one of Deckhand's listeners takes this interaction: a block action whose (first) action
 * id is one of Deckhand's button ids (Bolt hands listeners the first action), or the submission of
 * Deckhand's form modal. Everything else interactive — another app's buttons in a shared message, a
 * modal opened by someone else's code, global and message shortcuts, option loads, closed views,
 * legacy attachments and dialogs — is not Deckhand's.
 */
export function isDeckhandInteraction(body: InteractionBody): boolean {
  if (body.type === 'block_actions') {
    const id = body.actions?.[0]?.action_id ?? '';
    return id.startsWith(ACTION_PREFIX) || id.startsWith(LINK_PREFIX);
  }
  if (body.type === 'view_submission') return body.view?.callback_id === FORM_CALLBACK_ID;
  return false;
}

/**
 * Acknowledges interactions no Deckhand listener takes, and ends Bolt's chain there.
 *
 * Unacknowledged, Bolt's HTTP receiver answers them with a 404 after three seconds and logs an error
 * (and Slack shows the person a failure); in Socket Mode the envelope is never acknowledged. They are
 * ordinary traffic — a workspace's other apps, shortcuts configured on the app but not used — so they
 * are acknowledged with an empty body and logged at debug level. Slash commands and Events API
 * callbacks go on unchanged (Bolt acknowledges events itself).
 */
export function ignoreUnclaimedInteractions(app: App, logger: Logger): void {
  app.use(async (args) => {
    const body = args.body as InteractionBody & { command?: string };
    if (body.command !== undefined || body.type === 'event_callback' || !('ack' in args)) {
      await args.next();
      return;
    }
    if (isDeckhandInteraction(body)) {
      await args.next();
      return;
    }
    await (args.ack as () => Promise<void>)();
    logger.debug(
      {
        type: body.type,
        callbackId: body.callback_id ?? body.view?.callback_id,
        actionId: body.actions?.[0]?.action_id,
      },
      "Slack: acknowledged an interaction that is not Deckhand's",
    );
  });
}
