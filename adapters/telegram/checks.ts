/** `deckhand doctor`'s configuration lines for Telegram (no network). */
import type { Config } from '../../src/config';
import { type CheckResult, fail, ok } from '../doctor-kit';

/** What is missing when Telegram is set up half-way, naming the variables; `undefined` otherwise. */
export function telegramMissing(config: Config): string | undefined {
  if (!config.TELEGRAM_WEBHOOK_SECRET) return undefined;
  if (!config.TELEGRAM_BOT_TOKEN)
    return 'TELEGRAM_WEBHOOK_SECRET is set: set TELEGRAM_BOT_TOKEN (BotFather → /token).';
  if (!config.PUBLIC_URL) {
    return 'TELEGRAM_WEBHOOK_SECRET needs PUBLIC_URL (Telegram posts to PUBLIC_URL/telegram/webhook); unset TELEGRAM_WEBHOOK_SECRET to long-poll instead.';
  }
  return undefined;
}

/** Half-set, or which mode runs. */
export function telegramSettingsCheck(config: Config): CheckResult | undefined {
  const label = 'Telegram settings';
  if (!config.TELEGRAM_BOT_TOKEN && !config.TELEGRAM_WEBHOOK_SECRET) return undefined;
  const problem = telegramMissing(config);
  if (problem) return fail(label, problem);
  return ok(label, config.TELEGRAM_WEBHOOK_SECRET ? 'webhook.' : 'long polling.');
}

/** Long polling receives in one process: several `web` processes need the webhook. */
export function telegramScalingCheck(config: Config): CheckResult | undefined {
  if (!config.TELEGRAM_BOT_TOKEN || (config.TELEGRAM_WEBHOOK_SECRET && config.PUBLIC_URL)) return undefined;
  return ok(
    'Telegram mode',
    'long polling: Telegram allows one poller, so run one `--role web` process; with several set TELEGRAM_WEBHOOK_SECRET and PUBLIC_URL (webhook).',
  );
}
