/** Path of the webhook on the one HTTP server (with `TELEGRAM_WEBHOOK_SECRET`), under `PUBLIC_URL`. */
export const WEBHOOK_PATH = '/telegram/webhook';
