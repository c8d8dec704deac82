/**
 * Before anything starts: is there a Redis to use? `REDIS_URL` set → yes. Otherwise Deckhand runs an
 * embedded redis-server, which must be installed. In the zero-configuration default (terminal chat,
 * sandbox) Deckhand installs it itself where this user may, saying so; with a chat platform
 * configured it never installs anything and names what to set instead.
 */
import { hasRedisServer } from '../store/redis';
import { ensurePackages, installHint } from '../system-packages';

/** Exit code and message when start-up cannot go on, else undefined. */
export interface PreflightFailure {
  code: number;
  message: string;
}

/** Checks (and, for the zero-configuration start, provides) Redis; writes progress to `say`. */
export function redisPreflight(options: {
  redisUrl: string | undefined;
  platformsConfigured: string[];
  say: (line: string) => void;
}): PreflightFailure | undefined {
  if (options.redisUrl || hasRedisServer()) return undefined;
  if (options.platformsConfigured.length > 0) {
    return {
      code: 2,
      message:
        `REDIS_URL is not set and redis-server is not installed. With a chat platform configured ` +
        `(${options.platformsConfigured.join(', ')}), set REDIS_URL to the Redis your Deckhand processes share, ` +
        'e.g. REDIS_URL=redis://127.0.0.1:6379 (BullMQ needs maxmemory-policy noeviction). ' +
        'Deckhand does not install a server for a configured deployment.',
    };
  }
  const result = ensurePackages([{ command: 'redis-server', pkg: 'redis-server' }], options.say);
  if (result.ok) return undefined;
  const why =
    result.reason === 'install-failed'
      ? 'Installing redis-server with apt-get failed (see above).'
      : 'Deckhand needs redis-server (or REDIS_URL pointing at a Redis) and may not install it as this user.';
  return {
    code: 1,
    message: `${why} Install it, then run the command again:\n\n${installHint(['redis-server'])}\n\nor set REDIS_URL=redis://HOST:6379 to use an existing Redis.`,
  };
}
