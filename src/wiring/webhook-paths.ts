/** Where source-host webhooks are delivered (src/web/oauth-routes.ts). */
export const SOURCEHOST_WEBHOOK_PATH = '/webhooks/source';
