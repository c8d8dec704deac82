import type { CardSurface } from '../../src/core/card-surface';
import { UsageError } from '../../src/core/errors';
import { translator } from '../../src/i18n/translate';
import type { SlackClients } from './clients';
import { formView } from './forms';
import { type SlackMessenger, type SlackPlace, slackErrorCode } from './messenger';

/** Options of {@link slackSurface}. */
export interface SurfaceDeps {
  messenger: SlackMessenger;
  clients: SlackClients;
}

/**
 * The reply surface of one Slack interaction: public cards are channel messages (updated in place
 * through their handle), private ones are ephemeral (or plain messages in the user's DM with the
 * bot), and forms open as modals while the interaction's `trigger_id` is valid.
 */
export function slackSurface(
  place: SlackPlace,
  deps: SurfaceDeps,
  triggerId?: string,
  /** The person's Slack locale, when known: the words around a form (its hint, its Submit button). */
  locale?: string,
): CardSurface {
  const surface: CardSurface = {
    async reply(card) {
      if (card.visibility === 'private' && !place.isPrivate) return deps.messenger.postEphemeral(place, card);
      return deps.messenger.postPublic(place, card);
    },
    update: (handle, card) => deps.messenger.update(handle, card),
  };
  if (triggerId) {
    surface.openForm = async (formId, form) => {
      const { client } = await deps.clients.forTeam(place.teamId);
      try {
        await client.views.open({
          trigger_id: triggerId,
          view: formView(
            form,
            {
              formId,
              channel: place.channel,
              ...(place.thread ? { thread: place.thread } : {}),
              ...(place.responseUrl ? { responseUrl: place.responseUrl } : {}),
            },
            translator(locale),
          ),
        });
      } catch (error) {
        if (slackErrorCode(error) === 'expired_trigger_id') {
          throw UsageError.inWords((say) => ({
            message: say.t('slack-form-window-closed'),
            hint: say.t('slack-form-window-closed-hint'),
          }));
        }
        throw error;
      }
    };
  }
  return surface;
}
