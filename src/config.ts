import { z } from 'zod';
import { PLATFORMS, platformEnv } from '../adapters/platforms';
import { bool, type EnvVar, listOf, optionalUrl, SAL_ENV } from './config-schema';
import { UNFURL_ENV } from './config-unfurls';

/** The URL schemes `REDIS_URL` accepts. */
export const REDIS_URL_SCHEMES = /^(rediss?|rediss?\+sentinel|rediss?\+cluster):\/\//;

/** What is sealed with `SECRET_KEY`: credentials, each platform's stored installations, form answers. */
const SEALED = [
  'credentials',
  ...PLATFORMS.filter((platform) => platform.storesInstallations).map(
    (p) => `${p.displayName} installations`,
  ),
  'form answers',
].join(', ');

/** The variables listed before the platforms' own. */
const GENERAL_ENV = {
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    description: 'Log level (pino).',
  },
  LOG_FILE: {
    schema: z.string().optional(),
    description:
      'Write logs to this file instead of stderr. The interactive shell defaults to `.data/deckhand.log`.',
  },
  REDIS_URL: {
    schema: z
      .string()
      .regex(
        REDIS_URL_SCHEMES,
        'must be a redis://, rediss://, redis+sentinel:// or redis+cluster:// URL (see docs/redis.md)',
      )
      .optional(),
    description:
      'Redis to use: `redis://` or `rediss://` for one node, `redis+sentinel://:PASSWORD@HOST:26379,HOST:26379/MASTER` for a Sentinel group, `redis+cluster://:PASSWORD@HOST:6379,HOST:6379` for a Cluster (`rediss+…` for TLS; docs/redis.md). When no Redis is set, Deckhand starts a local `redis-server` with its data under `.data/redis`.',
  },
  REDIS_SENTINELS: {
    schema: listOf(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, '10.0.0.5:26379'),
    description:
      'Sentinels of a Sentinel group (`host:port`, comma-separated), instead of a `redis+sentinel://` URL. Needs `REDIS_SENTINEL_NAME`.',
  },
  REDIS_SENTINEL_NAME: {
    schema: z.string().min(1).optional(),
    description: 'Name of the master the sentinels watch (`sentinel monitor NAME …`).',
  },
  REDIS_SENTINEL_PASSWORD: {
    schema: z.string().min(1).optional(),
    description:
      'Password of the sentinels themselves, when they require one (`requirepass` in sentinel.conf).',
  },
  REDIS_CLUSTER_NODES: {
    schema: listOf(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, '10.0.0.5:6379'),
    description:
      'Some nodes of a Redis Cluster (`host:port`, comma-separated; the rest are discovered), instead of a `redis+cluster://` URL.',
  },
  REDIS_PASSWORD: {
    schema: z.string().min(1).optional(),
    description:
      'Password of the Redis data nodes with `REDIS_SENTINELS` or `REDIS_CLUSTER_NODES` (a URL carries its own).',
  },
  REDIS_USERNAME: {
    schema: z.string().min(1).optional(),
    description: 'ACL user of the Redis data nodes with `REDIS_SENTINELS` or `REDIS_CLUSTER_NODES`.',
  },
  REDIS_TLS: {
    schema: bool.default(false),
    description:
      'Use TLS to the Redis nodes (and sentinels) given by `REDIS_SENTINELS` or `REDIS_CLUSTER_NODES`.',
  },
  REDIS_KEY_PREFIX: {
    schema: z
      .string()
      .regex(
        /^[A-Za-z0-9:_-]*(\{[A-Za-z0-9:_-]+\}[A-Za-z0-9:_-]*)?$/,
        'letters, digits, `:`, `_` and `-`, and at most one `{hash tag}`',
      )
      .default('dh:'),
    description:
      "Prefix of every Redis key and queue Deckhand uses, so several deployments can share one Redis. Without braces Deckhand tags each queue and each group of keys used together itself (spread over a Cluster's masters); a `{tag}` in it puts every key in that one slot (docs/redis.md).",
  },
  DATA_DIR: {
    schema: z.string().default('.data'),
    description: 'Where local state lives (embedded Redis, sandbox files, logs).',
  },
  PORT: {
    schema: z.coerce.number().int().min(0).max(65535).default(3000),
    description: 'Port of the HTTP server.',
  },
  HOST: { schema: z.string().default('0.0.0.0'), description: 'Address the HTTP server listens on.' },
  METRICS_PORT: {
    schema: z.coerce.number().int().min(0).max(65535).optional(),
    description:
      'Serve Prometheus metrics at `/metrics` on this separate port (on `METRICS_HOST`), never on the public `PORT`. With neither this nor `METRICS_TOKEN`, metrics are not served.',
  },
  METRICS_HOST: {
    schema: z.string().default('127.0.0.1'),
    description:
      'Address the `METRICS_PORT` listener binds to; `0.0.0.0` lets a scraper in another container or host reach it.',
  },
  METRICS_TOKEN: {
    schema: z.string().min(16, 'must be at least 16 characters (openssl rand -hex 32)').optional(),
    description:
      'Bearer token `/metrics` requires (`Authorization: Bearer …`). Without `METRICS_PORT`, it serves `/metrics` on the public `PORT` to requests bearing it.',
  },
  PUBLIC_URL: {
    schema: optionalUrl,
    description:
      'Public base URL of the HTTP server, for links Deckhand hands out (OAuth callbacks, webhooks).',
    defaultText: '`http://localhost:$PORT`',
  },
  SECRET_KEY: {
    schema: z
      .string()
      .regex(
        /^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/,
        'must be 32 random bytes as 64 hex digits or base64 (openssl rand -hex 32)',
      )
      .optional(),
    description: `Key that encrypts every stored secret (${SEALED}; AES-256-GCM): 32 bytes, hex or base64 (\`openssl rand -hex 32\`). Required with a chat platform; without one the sandbox and terminal use a development key derived on this machine.`,
  },
  SECRET_KEY_PREVIOUS: {
    schema: z
      .string()
      .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, 'must be 32 bytes as 64 hex digits or base64')
      .optional(),
    description: `The key used before \`SECRET_KEY\` when rotating it: only used to read values sealed with it (${SEALED}), which are then sealed again with \`SECRET_KEY\`.`,
  },
  SOURCEHOST_URL: {
    schema: optionalUrl,
    description: 'REST API of the source host. The sandbox emulator in sandbox mode.',
    defaultText: '`https://api.github.com`',
  },
  SOURCEHOST_WEB_URL: {
    schema: optionalUrl,
    description: 'Web host of the source host (OAuth sign-in, settings pages).',
    defaultText: '`https://github.com`',
  },
  SOURCEHOST_CLIENT_ID: {
    schema: z.string().min(1).optional(),
    description:
      'Client id of the OAuth application for `/link source` (callback URL: `PUBLIC_URL` + `/oauth/source/callback`). Set by the sandbox in sandbox mode.',
  },
  SOURCEHOST_CLIENT_SECRET: {
    schema: z.string().min(1).optional(),
    description: 'Client secret of that OAuth application.',
  },
  SOURCEHOST_WEBHOOK_SECRET: {
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    description:
      'Secret of the source-host webhook at `PUBLIC_URL` + `/webhooks/source` (`X-Hub-Signature-256` is checked with it); without it webhooks are refused.',
  },
  SOURCEHOST_REPO_HOSTS: {
    schema: listOf(/^[A-Za-z0-9.-]+(:\d+)?$/, 'gitlab.example.org'),
    description:
      "Hosts, besides the source host's web host, whose `https://<host>/<owner>/<name>` repository URLs are mirrors of source-host repositories (used to find a tool's repository for push access). The sandbox adds the seeded tools' host.",
  },
  SOURCEHOST_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(100).default(15000),
    description: 'Timeout of one request to the source host, in ms.',
  },
  PERMISSION_CACHE_SECONDS: {
    schema: z.coerce.number().int().min(0).default(300),
    description: "How long push access of a linked account to a tool's repository is remembered, in seconds.",
  },
  SANDBOX: {
    schema: bool.default(false),
    description: 'Use the embedded emulators for every external service (also `--sandbox`).',
    defaultText: '`0`, and on when no service URL is configured',
  },
  SANDBOX_STEP_MS: {
    schema: z.coerce.number().int().min(1).default(1500),
    description: 'Sandbox pacing: how long each build/deployment step takes, in ms (tests use a few ms).',
  },
  TOOLHOST_URL: {
    schema: optionalUrl,
    description:
      'External server of the tool hosting platform (deploy tokens), e.g. `https://api.svc.toolforge.org`.',
  },
  TOOLHOST_INTERNAL_URL: {
    schema: optionalUrl,
    description:
      'Internal server (client certificates), e.g. `https://api.svc.tools.eqiad1.wikimedia.cloud:30003`.',
  },
  TOOLHOST_CERT_DIR: {
    schema: z.string().optional(),
    description:
      'Directory of per-tool client certificates: `<dir>/<tool>/client.crt` and `<dir>/<tool>/client.key`, as the platform puts them in `~/.toolskube/`. A tool with a certificate uses the internal server.',
  },
  TOOLHOST_CA_FILE: {
    schema: z.string().optional(),
    description: 'CA bundle (PEM) to trust for the internal server.',
  },
  TOOLHOST_DEPLOY_TOKENS: {
    schema: listOf(/^[a-z0-9][a-z0-9-]*=[A-Za-z0-9-]+$/, 'mytool=<token>'),
    description:
      'Bot-wide deploy tokens, `tool=token` separated by commas. A tool with a token (and no certificate) uses the external server.',
  },
  TOOLHOST_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(100).default(15000),
    description: 'Timeout of one request to the tool hosting platform, in ms.',
  },
  COMMAND_DEADLINE_MS: {
    schema: z.coerce.number().int().min(500).default(20000),
    description:
      'How long a command waits for the services it calls, retries included, in ms (about one request timeout, `TOOLHOST_TIMEOUT_MS`): then it answers that the service did not answer. A request still open after 3 s (or half this) shows a "still waiting" card.',
  },
  CALENDAR_URL: {
    schema: optionalUrl,
    description:
      "REST root of the event calendar (a WordPress site with The Events Calendar): `https://example.org/wp-json`, or `https://example.org/?rest_route=` with plain permalinks. Unset: the sandbox's calendar in sandbox mode, else the calendar commands say it is not set up.",
  },
  CALENDAR_NAMESPACE: {
    schema: z
      .string()
      .regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/, 'must be a REST namespace such as tribe/events/v1')
      .default('tribe/events/v1'),
    description: "REST namespace of the calendar plugin's API.",
  },
  CALENDAR_USER: {
    schema: z.string().min(1).optional(),
    description:
      'WordPress user Deckhand writes events as (a dedicated user with the Editor role), with `CALENDAR_APP_PASSWORD`.',
  },
  CALENDAR_APP_PASSWORD: {
    schema: z.string().min(1).optional(),
    description:
      'Application password of `CALENDAR_USER` (Users → Profile → Application Passwords, or `<site>/wp-admin/authorize-application.php`). Bot-wide: every chat user writes with it until they link their own. Reads need none.',
  },
  CALENDAR_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(100).default(15000),
    description: 'Timeout of one request to the event calendar, in ms.',
  },
  MEDIA_API_URL: {
    schema: optionalUrl,
    description:
      "API host of the media host (DoodStream-style; paths are `/api/…`). Unset: the sandbox's media emulator in sandbox mode.",
    defaultText: '`https://doodapi.com`',
  },
  MEDIA_API_KEY: {
    schema: z.string().min(8, 'must be the API key from the media account settings page').optional(),
    description:
      "Bot-wide media API key (the account settings page): every chat user acts with it until they link their own. In sandbox mode the emulator's seeded key unless this is set.",
  },
  MEDIA_PLAYER_URL: {
    schema: optionalUrl,
    description:
      'Player host for embed and download links, e.g. `https://dood.to`; by default taken from the links the media host returns (it rotates).',
  },
  MEDIA_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(100).default(30000),
    description: 'Timeout of one media API call, in ms (uploads stream as long as bytes keep moving).',
  },
  UPLOAD_EDIT_MS: {
    schema: z.coerce.number().int().min(100).default(2000),
    description: 'An upload progress card is edited at most once per this many ms.',
  },
} satisfies Record<string, EnvVar>;

/** A user id after its platform: no colon, or `@name:server[:port]` (user ids that name their server). */
const CHAT_USER = new RegExp(
  `^(${PLATFORMS.map((p) => p.name).join('|')}):(?:[^:\\s]+|@[^:\\s]+:[A-Za-z0-9.-]+(?::\\d{1,5})?)$`,
);
const EXAMPLE_USER = `${PLATFORMS[0].name}:${PLATFORMS[0].exampleUserId}`;

/** The variables listed after the platforms' own. */
const ACCESS_ENV = {
  ADMINS: {
    schema: listOf(CHAT_USER, EXAMPLE_USER),
    description: 'Admins: `platform:userId` separated by commas. Admins may run every command on every tool.',
  },
  TOOL_MAINTAINERS: {
    schema: listOf(new RegExp(`^[a-z0-9][a-z0-9-]*=${CHAT_USER.source.slice(1)}`), `mytool=${EXAMPLE_USER}`),
    description:
      'Maintainers per tool: `tool=platform:userId` separated by commas. Maintainers may deploy and change that tool.',
  },
  READ_ACCESS: {
    schema: z.enum(['everyone', 'maintainers']).default('everyone'),
    description:
      "Who may run read-only commands on a tool: `everyone` in the conversation, or only `maintainers` (admins, maintainers, holders of the tool's deploy token).",
  },
  SHELL_USER: {
    schema: z.string().min(1).optional(),
    description: 'User name of the terminal chat (shell adapter).',
    defaultText: '`$USER`',
  },
  WATCH_POLL_MS: {
    schema: z.coerce.number().int().min(10).default(1000),
    description:
      'First delay when following a deployment or build; it grows ×1.5 per poll up to 15 s. The sandbox uses a third of `SANDBOX_STEP_MS`.',
  },
  DISCOVERY_INTERVAL_MS: {
    schema: z.coerce.number().int().min(1000).default(30000),
    description:
      'How often each subscribed tool is checked for builds and deployments started outside Deckhand, in ms.',
  },
  NOTIFY_AFTER_SECONDS: {
    schema: z.coerce.number().int().min(0).default(60),
    description:
      'Work someone started from chat (a deployment, build, one-off job or upload) that ran at least this long gets them a direct message when it ends (`/notify`).',
  },
  QUEUE_LOCK_MS: {
    schema: z.coerce.number().int().min(500).default(30000),
    description:
      'How long a queued job stays locked to a worker that stopped answering (crashed) before another worker takes it over, in ms.',
  },
  TAIL_EDIT_MS: {
    schema: z.coerce.number().int().min(100).default(2000),
    description:
      "A live log tail edits its message at most once per this many ms (less often where the conversation's platform allows fewer edits).",
  },
  TAIL_MAX_MINUTES: {
    schema: z.coerce.number().min(0.01).default(15),
    description: 'A live log tail stops by itself after this many minutes and posts the transcript.',
  },
  WATCH_MAX_MINUTES: {
    schema: z.coerce.number().min(1).default(90),
    description: 'How long a status card is followed before Deckhand stops and says so.',
  },
} satisfies Record<string, EnvVar>;

/** Every environment variable Deckhand reads: the general ones, each platform's, then access and timing. */
export const ENV = { ...GENERAL_ENV, ...platformEnv(), ...ACCESS_ENV, ...SAL_ENV, ...UNFURL_ENV };

type Env = typeof ENV;

/** The parsed configuration. */
export type Config = { [K in keyof Env]: z.output<Env[K]['schema']> };

/** A configuration problem, naming the variable and the fix. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment; throws a {@link ConfigError} listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(ENV) as [string, EnvVar][]) {
    const raw = env[name];
    const result = spec.schema.safeParse(raw === '' && name !== 'SANDBOX' ? undefined : raw);
    if (result.success) out[name] = result.data;
    else problems.push(`${name}: ${result.error.issues[0]?.message ?? 'invalid'} — ${spec.description}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Config;
}

/** True when no real upstream service is configured, so the sandbox is used. */
export function wantsSandbox(config: Config, flag: boolean): boolean {
  return flag || config.SANDBOX || (!config.TOOLHOST_URL && !config.TOOLHOST_INTERNAL_URL);
}
