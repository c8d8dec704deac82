/**
 * The fake's webhook methods: setWebhook, deleteWebhook and getWebhookInfo over
 * {@link FakeTelegramState} (the fake itself posts to no webhook; see FakeTelegram.webhookDeliveryFailed).
 */
import type { Handler } from './telegram-methods';
import { checkWebhook } from './telegram-rules';

/** The webhook methods, merged into the fake's METHODS. */
export const WEBHOOK_METHODS: Record<string, Handler> = {
  // `drop_pending_updates`: "Pass True to drop all pending updates" (core.telegram.org/bots/api#deletewebhook,
  // #setwebhook).
  deleteWebhook: (state, params) => {
    if (params.drop_pending_updates === true) state.dropPendingUpdates();
    state.webhook = undefined;
    return true;
  },
  setWebhook: (state, params) => {
    checkWebhook(params);
    if (params.drop_pending_updates === true) state.dropPendingUpdates();
    const url = String(params.url ?? '');
    state.webhook = url
      ? {
          url,
          ...(params.secret_token ? { secretToken: String(params.secret_token) } : {}),
          ...(params.allowed_updates ? { allowedUpdates: params.allowed_updates as string[] } : {}),
        }
      : undefined;
    return true;
  },
  // WebhookInfo (core.telegram.org/bots/api#webhookinfo): `url` empty while the bot uses getUpdates;
  // `pending_update_count` counts the updates awaiting delivery (the fake's queue: it delivers to no
  // webhook, so while one is set they wait, as with a webhook Telegram cannot reach); the last
  // delivery error only when one happened (see FakeTelegram.webhookDeliveryFailed).
  getWebhookInfo: (state) => ({
    url: state.webhook?.url ?? '',
    has_custom_certificate: false,
    pending_update_count: state.pendingUpdates(),
    ...(state.webhook?.lastErrorDate !== undefined ? { last_error_date: state.webhook.lastErrorDate } : {}),
    ...(state.webhook?.lastErrorMessage !== undefined
      ? { last_error_message: state.webhook.lastErrorMessage }
      : {}),
    ...(state.webhook?.allowedUpdates ? { allowed_updates: state.webhook.allowedUpdates } : {}),
  }),
};
