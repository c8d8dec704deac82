import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { recordChatApiCall } from '../api-metrics';

/** The Web API method of a request URL (`…/api/chat.postMessage` → `chat.postMessage`). */
export function slackMethodOf(url: string | URL): string {
  const path = new URL(String(url)).pathname;
  const method = path.slice(path.lastIndexOf('/') + 1);
  return /^[a-zA-Z]+(\.[a-zA-Z]+)+$/.test(method) ? method : 'other';
}

/**
 * The WebClient's `fetch` option (its hook on every HTTP attempt, retries included), counting each
 * call: HTTP 429 as rate-limited; another HTTP error, an `ok: false` answer or no answer as an error.
 */
export function observedFetch(logger: Logger, inner: webApi.FetchFunction = fetch): webApi.FetchFunction {
  return async (url, init) => {
    const method = slackMethodOf(url);
    let response: Awaited<ReturnType<webApi.FetchFunction>>;
    try {
      response = await inner(url, init);
    } catch (error) {
      recordChatApiCall(logger, 'slack', method, 'error', 'unreachable');
      throw error;
    }
    if (response.status === 429) {
      recordChatApiCall(logger, 'slack', method, 'rate-limited', 429);
    } else {
      recordChatApiCall(
        logger,
        'slack',
        method,
        (await answeredOk(response)) ? 'ok' : 'error',
        response.status,
      );
    }
    return response;
  };
}

/** True for a 2xx answer whose JSON body does not say `ok: false` (Slack's errors come as HTTP 200). */
async function answeredOk(response: Awaited<ReturnType<webApi.FetchFunction>>): Promise<boolean> {
  if (!response.ok) return false;
  const copy = (response as unknown as { clone?: () => Response }).clone?.();
  if (!copy || !/json/.test(response.headers.get('content-type') ?? '')) return true;
  try {
    const body = (await copy.json()) as { ok?: unknown };
    return body.ok !== false;
  } catch {
    return true;
  }
}
