/**
 * REST options for discord.js. One fix lives here: discord.js's REST (undici 6) sends uploads as a
 * Node `FormData`, but the process-wide undici dispatcher is installed by the undici 7 that Deckhand
 * itself uses, and undici 7 cannot read a FormData made by another undici. So multipart bodies are
 * encoded to bytes first (with their boundary header), then sent by discord.js's own request code.
 */
import { DefaultRestOptions, type RESTOptions } from 'discord.js';
import type { Config } from '../../src/config';

/** Default base of the REST API (discord.js appends `/v10`). */
export const DISCORD_API = 'https://discord.com/api';

type MakeRequest = RESTOptions['makeRequest'];

const encodeFormData: MakeRequest = async (url, init) => {
  if (typeof FormData !== 'undefined' && init.body instanceof FormData) {
    const encoded = new Response(init.body);
    const body = Buffer.from(await encoded.arrayBuffer());
    const headers = { ...(init.headers as Record<string, string>) };
    headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
    return DefaultRestOptions.makeRequest(url, { ...init, body, headers });
  }
  return DefaultRestOptions.makeRequest(url, init);
};

/** REST options from the configuration (`DISCORD_API_URL`), plus `extra` (timeouts, retries). */
export function restOptions(
  config: Pick<Config, 'DISCORD_API_URL'>,
  extra: Partial<RESTOptions> = {},
): Partial<RESTOptions> {
  // 45/s rather than Discord's 50/s global limit: a little margin, so a burst delayed by a busy event
  // loop does not spill into the next second (measured by the fan-out benchmark).
  return {
    api: config.DISCORD_API_URL ?? DISCORD_API,
    version: '10',
    makeRequest: encodeFormData,
    globalRequestsPerSecond: 45,
    ...extra,
  };
}
