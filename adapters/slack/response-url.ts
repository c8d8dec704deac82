import type { SlackMessage } from './render';

/** How a `response_url` message is shown. */
export type ResponseMode = 'ephemeral' | 'in_channel' | 'replace';

const MAX_TRIES = 4;

/**
 * Posts a rendered card to an interaction's `response_url` (valid 30 minutes, 5 uses): the way to
 * answer where the bot itself cannot post (a channel it is not in, a DM between two people). A 429
 * waits for `Retry-After` and tries again, so nothing is lost to a rate limit.
 */
export async function postToResponseUrl(
  url: string,
  message: SlackMessage,
  mode: ResponseMode,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const body =
    mode === 'replace'
      ? { replace_original: true, attachments: message.attachments }
      : { response_type: mode, replace_original: false, attachments: message.attachments };
  for (let attempt = 1; ; attempt++) {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 429 && attempt < MAX_TRIES) {
      const seconds = Number(response.headers.get('retry-after') ?? '1');
      await new Promise((resolve) => setTimeout(resolve, Math.max(0.1, Math.min(seconds, 60)) * 1000));
      continue;
    }
    if (!response.ok) throw new Error(`response_url answered ${response.status}: ${text.slice(0, 100)}`);
    return;
  }
}
