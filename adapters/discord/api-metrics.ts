import type { REST } from 'discord.js';
import type { Logger } from 'pino';
import { recordChatApiCall } from '../api-metrics';

/**
 * A bounded label for a discord.js bucket route (`/channels/:id/messages`): the SDK already writes
 * snowflakes as `:id`; any other run of digits, and the token of an interaction or webhook, is
 * replaced too.
 */
export function discordRouteLabel(method: string, route: string): string {
  const path = route
    .split('?')[0]
    ?.replace(/\/(interactions|webhooks)\/(:id|\d+)\/[^/]+/, '/$1/:id/:token')
    .replace(/\/\d+(?=\/|$)/g, '/:id');
  return `${method.toUpperCase()} ${path}`;
}

/**
 * Counts every REST call through discord.js's own `response` event (emitted for each HTTP attempt,
 * 429s included, before the SDK retries or waits).
 */
export function observeRest(rest: REST, logger: Logger): void {
  rest.on('response', (request, response) => {
    const method = discordRouteLabel(request.method, request.route);
    const result = response.status === 429 ? 'rate-limited' : response.status >= 400 ? 'error' : 'ok';
    recordChatApiCall(logger, 'discord', method, result, response.status);
  });
}
