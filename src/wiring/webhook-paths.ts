/**
 * The paths Deckhand serves platform deliveries on, for `deckhand doctor` (which compares the
 * registrations with `PUBLIC_URL` + these). Re-exported from the adapters' own modules, which load no
 * SDK at run time (their SDK imports are types only), so the CLI stays free of chat SDKs.
 */
export { INTERACTIONS_PATH as DISCORD_INTERACTIONS_PATH } from '../../adapters/discord/http-endpoint';
export { WEBHOOK_PATH as TELEGRAM_WEBHOOK_PATH } from '../../adapters/telegram/webhook';

/** Where source-host webhooks are delivered (src/web/oauth-routes.ts). */
export const SOURCEHOST_WEBHOOK_PATH = '/webhooks/source';
