/** `deckhand doctor`'s network lines for Telegram: read-only requests (the token is in the path: never shown). */
import type { Config } from '../../src/config';
import type { PlatformDoctor } from '../descriptor';
import { type CheckResult, credentialsFirst, fail, field, inert, ok, skip, trim } from '../doctor-kit';
import { probe, shown } from '../doctor-probe';
import { WEBHOOK_PATH } from './paths';

/** Pending updates past which a Telegram webhook is falling behind (a healthy one keeps ~0). */
export const PENDING_LIMIT = 100;

/** Telegram `getMe` (core.telegram.org/bots/api#getme). */
async function credentials(config: Config): Promise<CheckResult> {
  const label = 'Telegram credentials';
  const root = trim(config.TELEGRAM_API_ROOT ?? 'https://api.telegram.org');
  const result = await probe(`${root}/bot${config.TELEGRAM_BOT_TOKEN}/getMe`);
  if (result.kind === 'unreachable') {
    return fail(
      label,
      `cannot reach ${shown(root)} (${result.reason}): check TELEGRAM_API_ROOT and the network.`,
    );
  }
  if (field(result.json, 'ok') === true)
    return ok(label, `@${String(field(field(result.json, 'result'), 'username') ?? '?')}.`);
  return fail(
    label,
    `getMe answered ${result.status}: set TELEGRAM_BOT_TOKEN to the token BotFather gave (/token).`,
  );
}

/** How long ago a Unix time was, in words (`5 min`, `3 h`, `2 days`). */
function ago(unixSeconds: number): string {
  const seconds = Math.max(0, Math.round(Date.now() / 1000 - unixSeconds));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/**
 * Telegram `getWebhookInfo` (core.telegram.org/bots/api#getwebhookinfo; WebhookInfo in
 * specs/platforms/telegram-bot-api-openapi.json: `url` is empty while the bot uses getUpdates).
 * Webhook mode: the URL must be the one `start` registers (adapters/telegram/adapter.ts, `setWebhook`
 * with PUBLIC_URL + /telegram/webhook), with no delivery error and no backlog. Long polling: no
 * webhook may be set — "You will not be able to receive updates using getUpdates for as long as an
 * outgoing webhook is set up" (core.telegram.org/bots/api#setwebhook, Notes; getUpdates answers 409).
 */
async function deliveries(config: Config, credentialsPassed: boolean): Promise<CheckResult> {
  const label = 'Telegram webhook';
  if (!credentialsPassed) return credentialsFirst(label);
  const token = config.TELEGRAM_BOT_TOKEN as string;
  const secrets = [token, config.TELEGRAM_WEBHOOK_SECRET];
  if (config.TELEGRAM_WEBHOOK_SECRET && !config.PUBLIC_URL)
    return skip(label, 'not checked: the webhook needs PUBLIC_URL (see Telegram settings).');
  const root = trim(config.TELEGRAM_API_ROOT ?? 'https://api.telegram.org');
  const result = await probe(`${root}/bot${token}/getWebhookInfo`);
  if (result.kind === 'unreachable')
    return fail(label, `cannot reach ${shown(root)} (${result.reason}): check TELEGRAM_API_ROOT.`);
  const info = field(result.json, 'result');
  if (field(result.json, 'ok') !== true || !info)
    return fail(label, `getWebhookInfo answered ${result.status}: check TELEGRAM_BOT_TOKEN.`);
  const url = String(field(info, 'url') ?? '');
  if (!config.TELEGRAM_WEBHOOK_SECRET) {
    if (!url) return ok(label, 'none set, as long polling needs.');
    return fail(
      label,
      `a webhook is set (${inert(url, secrets)}), and Telegram refuses getUpdates (long polling) while it is: ` +
        'if another deployment uses this bot token, give Deckhand its own bot; else set TELEGRAM_WEBHOOK_SECRET ' +
        'to use the webhook, or let `deckhand start` delete it.',
    );
  }
  const expected = `${trim(config.PUBLIC_URL as string)}${WEBHOOK_PATH}`;
  if (!url) {
    return fail(
      label,
      `none set: the web process registers ${expected} when it starts (deckhand start --role web); start it.`,
    );
  }
  if (url !== expected) {
    return fail(
      label,
      `set to ${inert(url, secrets)}, not ${expected}: another deployment uses this bot token, or PUBLIC_URL ` +
        'changed; restart the web process to register this one.',
    );
  }
  const lastError = field(info, 'last_error_message');
  if (typeof lastError === 'string' && lastError !== '') {
    const date = Number(field(info, 'last_error_date'));
    const when = Number.isFinite(date) && date > 0 ? ` ${ago(date)} ago` : '';
    return fail(
      label,
      `Telegram's last delivery to ${expected} failed${when}: "${inert(lastError, secrets)}": ` +
        'check that PUBLIC_URL is reachable from the internet over HTTPS and the web process is running.',
    );
  }
  const pending = Number(field(info, 'pending_update_count') ?? 0);
  if (pending >= PENDING_LIMIT) {
    return fail(
      label,
      `${pending} updates wait for delivery to ${expected}: is the web process answering? (Telegram keeps them 24 h.)`,
    );
  }
  return ok(label, `${expected}, ${pending} pending.`);
}

/** Telegram's network checks. */
export const telegramDoctor: PlatformDoctor = { credentials, deliveries };
