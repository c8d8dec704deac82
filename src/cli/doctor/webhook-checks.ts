/**
 * `deckhand doctor`, the webhook registrations: where each platform delivers to, read back from the
 * platform and compared with what Deckhand serves (`PUBLIC_URL` + its route), or — when Deckhand
 * receives another way (long polling, the gateway) — that no registration diverts the deliveries.
 * Read-only requests; a platform whose credentials failed is not asked again.
 */
import type { Config } from '../../config';
import { slackSettings } from '../../wiring/platforms';
import { serviceModes } from '../../wiring/service-modes';
import {
  DISCORD_INTERACTIONS_PATH,
  SOURCEHOST_WEBHOOK_PATH,
  TELEGRAM_WEBHOOK_PATH,
} from '../../wiring/webhook-paths';
import { type CheckResult, fail, ok, skip } from './check';
import { probe, shown } from './http';

/** Pending updates past which a Telegram webhook is falling behind (a healthy one keeps ~0). */
export const TELEGRAM_PENDING_LIMIT = 100;
/** Longest piece of platform-supplied text (an error message, a URL) a line shows. */
const SHOWN_CHARS = 120;

const trim = (url: string) => url.replace(/\/+$/, '');
const field = (json: unknown, key: string): unknown =>
  json && typeof json === 'object' ? (json as Record<string, unknown>)[key] : undefined;

/**
 * Text a platform sent, made inert for one terminal line: control characters (escape sequences, line
 * breaks) become spaces, the given secrets are masked (a webhook URL may carry the bot token in its
 * path), and the rest is cut at {@link SHOWN_CHARS}.
 */
export function inert(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[secret]');
  out = out.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return out.length > SHOWN_CHARS ? `${out.slice(0, SHOWN_CHARS - 1)}…` : out;
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
async function telegram(config: Config): Promise<CheckResult> {
  const label = 'Telegram webhook';
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
  const expected = `${trim(config.PUBLIC_URL as string)}${TELEGRAM_WEBHOOK_PATH}`;
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
  if (pending >= TELEGRAM_PENDING_LIMIT) {
    return fail(
      label,
      `${pending} updates wait for delivery to ${expected}: is the web process answering? (Telegram keeps them 24 h.)`,
    );
  }
  return ok(label, `${expected}, ${pending} pending.`);
}

/**
 * Discord `GET /applications/@me` (`interactions_endpoint_url` and `verify_key` of
 * PrivateApplicationResponse, specs/platforms/discord-openapi.json). HTTP mode: the endpoint must be
 * PUBLIC_URL + /discord/interactions (adapters/discord/adapter.ts) and the key DISCORD_PUBLIC_KEY.
 * Gateway mode: none may be set — with one, interactions come "via HTTP POSTs rather than over
 * Gateway" (discord.com/developers/docs/interactions/receiving-and-responding#receiving-an-interaction).
 */
async function discord(config: Config): Promise<CheckResult> {
  const label = 'Discord interactions endpoint';
  if (config.DISCORD_PUBLIC_KEY && !config.PUBLIC_URL)
    return skip(label, 'not checked: HTTP interactions need PUBLIC_URL (see Discord settings).');
  const url = `${trim(config.DISCORD_API_URL ?? 'https://discord.com/api')}/v10/applications/@me`;
  const result = await probe(url, { headers: { authorization: `Bot ${config.DISCORD_TOKEN}` } });
  if (result.kind === 'unreachable')
    return fail(label, `cannot reach ${shown(url)} (${result.reason}): check DISCORD_API_URL.`);
  if (result.status !== 200)
    return fail(label, `/applications/@me answered ${result.status}: check DISCORD_TOKEN.`);
  const endpoint = field(result.json, 'interactions_endpoint_url');
  const registered = typeof endpoint === 'string' && endpoint !== '' ? endpoint : undefined;
  const secrets = [config.DISCORD_TOKEN];
  if (!config.DISCORD_PUBLIC_KEY) {
    if (!registered) return ok(label, 'none set: interactions arrive over the gateway.');
    return fail(
      label,
      `set to ${inert(registered, secrets)}, so Discord sends interactions there, not over the gateway: ` +
        'clear it (Developer Portal → General Information), or set DISCORD_PUBLIC_KEY to serve HTTP interactions.',
    );
  }
  const expected = `${trim(config.PUBLIC_URL as string)}${DISCORD_INTERACTIONS_PATH}`;
  const where = 'Developer Portal → General Information → Interactions Endpoint URL';
  if (registered !== expected) {
    const found = registered ? `set to ${inert(registered, secrets)}` : 'not set';
    return fail(label, `${found}: set it to ${expected} (${where}; the web process must be running).`);
  }
  const key = field(result.json, 'verify_key');
  if (typeof key === 'string' && key.toLowerCase() !== config.DISCORD_PUBLIC_KEY.toLowerCase()) {
    return fail(
      label,
      "DISCORD_PUBLIC_KEY is not this application's public key, so every signature check fails: copy it from General Information → Public Key.",
    );
  }
  return ok(label, `${expected}.`);
}

/**
 * Slack: the Request URLs (Event Subscriptions, Interactivity, slash commands) are part of the app's
 * configuration, readable only through `apps.manifest.export` with an app configuration token — not
 * with the bot token Deckhand holds. So this line says where to look.
 */
function slack(config: Config): CheckResult {
  const label = 'Slack request URLs';
  if (slackSettings(config)?.mode === 'socket')
    return skip(label, 'Socket Mode: Slack delivers over the WebSocket, no Request URL is used.');
  const base = config.PUBLIC_URL ? trim(config.PUBLIC_URL) : 'PUBLIC_URL';
  return skip(
    label,
    `not checked: Slack's Web API shows them only to an app configuration token (apps.manifest.export), not to a bot token; ` +
      `Event Subscriptions, Interactivity and each slash command must use ${base}/slack/events (api.slack.com/apps).`,
  );
}

/**
 * Source host: Deckhand registers no webhook itself (an admin adds the `repository_import` hook), and
 * listing a repository's hooks (`GET /repos/{owner}/{repo}/hooks`) needs the admin's token, which
 * Deckhand does not hold (users link their own accounts). So this line says where to look.
 */
function sourcehost(config: Config, sandbox: boolean): CheckResult {
  const label = 'Source host webhook';
  if (serviceModes(config, sandbox).sourcehost !== 'real')
    return skip(label, 'sandbox emulator: Deckhand sets it up itself.');
  if (!config.SOURCEHOST_WEBHOOK_SECRET)
    return skip(label, 'SOURCEHOST_WEBHOOK_SECRET not set: webhooks are refused, imports are not announced.');
  const base = config.PUBLIC_URL ? trim(config.PUBLIC_URL) : 'PUBLIC_URL';
  return skip(
    label,
    `not checked: listing a repository's hooks needs its admin's token, which Deckhand does not hold; ` +
      `the repository_import hook must post to ${base}${SOURCEHOST_WEBHOOK_PATH} with SOURCEHOST_WEBHOOK_SECRET.`,
  );
}

/**
 * The registration lines of the platforms in `credentials` (their credential lines, already run): a
 * platform whose credentials failed gets a `-` line instead of a second failure.
 */
export async function webhookChecks(
  config: Config,
  sandbox: boolean,
  credentials: readonly CheckResult[],
): Promise<CheckResult[]> {
  const passed = (name: string) =>
    credentials.find((c) => c.label === `${name} credentials`)?.status === 'ok';
  const credentialsFirst = (label: string) => skip(label, 'not checked: the credentials failed above.');
  const has = (name: string) => credentials.some((c) => c.label === `${name} credentials`);
  const checks: Promise<CheckResult>[] = [];
  if (has('Slack')) checks.push(Promise.resolve(slack(config)));
  if (has('Discord'))
    checks.push(
      passed('Discord')
        ? discord(config)
        : Promise.resolve(credentialsFirst('Discord interactions endpoint')),
    );
  if (has('Telegram'))
    checks.push(
      passed('Telegram') ? telegram(config) : Promise.resolve(credentialsFirst('Telegram webhook')),
    );
  checks.push(Promise.resolve(sourcehost(config, sandbox)));
  return Promise.all(checks);
}
