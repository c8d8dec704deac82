/** `deckhand doctor`'s network lines for Slack: read-only requests. */
import type { Config } from '../../src/config';
import type { PlatformDoctor } from '../descriptor';
import { type CheckResult, fail, field, ok, skip, trim } from '../doctor-kit';
import { probe, shown } from '../doctor-probe';
import { DEFAULT_SLACK_API_URL, slackSettings } from './settings';

/** Slack `auth.test` (api.slack.com/methods/auth.test): is the bot token valid? */
async function credentials(config: Config): Promise<CheckResult> {
  const label = 'Slack credentials';
  if (!config.SLACK_BOT_TOKEN) return skip(label, 'OAuth installs: each workspace brings its own token.');
  const base = config.SLACK_API_URL ?? DEFAULT_SLACK_API_URL;
  const url = `${base.endsWith('/') ? base : `${base}/`}auth.test`;
  const result = await probe(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.SLACK_BOT_TOKEN}` },
  });
  if (result.kind === 'unreachable')
    return fail(label, `cannot reach ${shown(url)} (${result.reason}): check SLACK_API_URL and the network.`);
  if (field(result.json, 'ok') === true) {
    return ok(
      label,
      `bot ${String(field(result.json, 'user') ?? '?')} in ${String(field(result.json, 'team') ?? '?')}.`,
    );
  }
  const error = String(field(result.json, 'error') ?? `HTTP ${result.status}`);
  return fail(
    label,
    `auth.test answered ${error}: set SLACK_BOT_TOKEN to the app's Bot User OAuth Token (OAuth & Permissions).`,
  );
}

/**
 * Slack: the Request URLs (Event Subscriptions, Interactivity, slash commands) are part of the app's
 * configuration, readable only through `apps.manifest.export` with an app configuration token — not
 * with the bot token Deckhand holds. So this line says where to look.
 */
async function deliveries(config: Config): Promise<CheckResult> {
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

/** Slack's network checks. */
export const slackDoctor: PlatformDoctor = { credentials, deliveries };
