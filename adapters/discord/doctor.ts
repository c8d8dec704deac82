/** `deckhand doctor`'s network lines for Discord: read-only requests. */
import type { Config } from '../../src/config';
import type { PlatformDoctor } from '../descriptor';
import { type CheckResult, credentialsFirst, fail, field, inert, ok, skip, trim } from '../doctor-kit';
import { probe, shown } from '../doctor-probe';
import { INTERACTIONS_PATH } from './paths';

const apiBase = (config: Config) => trim(config.DISCORD_API_URL ?? 'https://discord.com/api');

/** Discord `GET /users/@me` (discord.com/developers/docs/resources/user#get-current-user). */
async function credentials(config: Config): Promise<CheckResult> {
  const label = 'Discord credentials';
  const url = `${apiBase(config)}/v10/users/@me`;
  const result = await probe(url, { headers: { authorization: `Bot ${config.DISCORD_TOKEN}` } });
  if (result.kind === 'unreachable')
    return fail(
      label,
      `cannot reach ${shown(url)} (${result.reason}): check DISCORD_API_URL and the network.`,
    );
  if (result.status === 200) return ok(label, `bot ${String(field(result.json, 'username') ?? '?')}.`);
  return fail(
    label,
    `/users/@me answered ${result.status}: set DISCORD_TOKEN to the bot token (Developer Portal → Bot → Reset Token).`,
  );
}

/**
 * Discord `GET /applications/@me` (`interactions_endpoint_url` and `verify_key` of
 * PrivateApplicationResponse, specs/platforms/discord-openapi.json). HTTP mode: the endpoint must be
 * PUBLIC_URL + /discord/interactions (adapters/discord/adapter.ts) and the key DISCORD_PUBLIC_KEY.
 * Gateway mode: none may be set — with one, interactions come "via HTTP POSTs rather than over
 * Gateway" (discord.com/developers/docs/interactions/receiving-and-responding#receiving-an-interaction).
 */
async function deliveries(config: Config, credentialsPassed: boolean): Promise<CheckResult> {
  const label = 'Discord interactions endpoint';
  if (!credentialsPassed) return credentialsFirst(label);
  if (config.DISCORD_PUBLIC_KEY && !config.PUBLIC_URL)
    return skip(label, 'not checked: HTTP interactions need PUBLIC_URL (see Discord settings).');
  const url = `${apiBase(config)}/v10/applications/@me`;
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
  const expected = `${trim(config.PUBLIC_URL as string)}${INTERACTIONS_PATH}`;
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

/** Discord's network checks. */
export const discordDoctor: PlatformDoctor = { credentials, deliveries };
