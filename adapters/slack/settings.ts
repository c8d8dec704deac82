import type { Config } from '../../src/config';

/** How the Slack adapter runs, read from the configuration. */
export interface SlackSettings {
  /** `http`: Slack POSTs to `/slack/events` (signed); `socket`: Socket Mode with the app-level token. */
  mode: 'http' | 'socket';
  /** Single workspace: the bot token. Absent with OAuth installs. */
  botToken?: string;
  signingSecret?: string;
  appToken?: string;
  /** Multi-workspace installs through Slack's OAuth (tokens kept in Redis, encrypted). */
  oauth?: { clientId: string; clientSecret: string; stateSecret?: string };
  /** Base of the Web API, with a trailing slash. */
  apiUrl: string;
  /** Public base URL (install links, manifest). */
  publicUrl?: string;
  /** Key that encrypts stored installations (`SECRET_KEY`). */
  secretKey?: string;
}

/** Routes Slack sends to (the DESIGN.md routes table). */
export const SLACK_ROUTES = {
  events: '/slack/events',
  install: '/slack/install',
  oauthRedirect: '/slack/oauth_redirect',
} as const;

/** Web API base used when `SLACK_API_URL` is not set. */
export const DEFAULT_SLACK_API_URL = 'https://slack.com/api/';

/** The adapter's settings, or undefined when Slack is not configured at all. */
export function slackSettings(config: Config): SlackSettings | undefined {
  const single = config.SLACK_BOT_TOKEN && (config.SLACK_SIGNING_SECRET || config.SLACK_APP_TOKEN);
  const oauth = config.SLACK_CLIENT_ID && config.SLACK_CLIENT_SECRET;
  if (!single && !oauth) return undefined;
  const apiUrl = config.SLACK_API_URL ?? DEFAULT_SLACK_API_URL;
  return {
    mode: config.SLACK_APP_TOKEN ? 'socket' : 'http',
    ...(config.SLACK_BOT_TOKEN ? { botToken: config.SLACK_BOT_TOKEN } : {}),
    ...(config.SLACK_SIGNING_SECRET ? { signingSecret: config.SLACK_SIGNING_SECRET } : {}),
    ...(config.SLACK_APP_TOKEN ? { appToken: config.SLACK_APP_TOKEN } : {}),
    ...(oauth && config.SLACK_CLIENT_ID && config.SLACK_CLIENT_SECRET
      ? {
          oauth: {
            clientId: config.SLACK_CLIENT_ID,
            clientSecret: config.SLACK_CLIENT_SECRET,
            ...(config.SLACK_STATE_SECRET ? { stateSecret: config.SLACK_STATE_SECRET } : {}),
          },
        }
      : {}),
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
    ...(config.SECRET_KEY ? { secretKey: config.SECRET_KEY } : {}),
  };
}

/**
 * What is missing for the chosen mode and role, as sentences naming the variables; empty when the
 * settings can run.
 */
export function settingsProblems(settings: SlackSettings, role: 'web' | 'worker' | 'all'): string[] {
  const problems: string[] = [];
  if (settings.oauth && !settings.botToken) {
    if (!settings.secretKey) {
      problems.push(
        'SLACK_CLIENT_ID/SLACK_CLIENT_SECRET need SECRET_KEY: installed bot tokens are stored encrypted.',
      );
    }
    if (role !== 'worker' && !settings.oauth.stateSecret) {
      problems.push(
        'SLACK_CLIENT_ID/SLACK_CLIENT_SECRET need SLACK_STATE_SECRET to sign the installation state.',
      );
    }
  }
  if (role !== 'worker' && settings.mode === 'http' && !settings.signingSecret) {
    problems.push(
      'Slack over HTTP needs SLACK_SIGNING_SECRET (or set SLACK_APP_TOKEN to use Socket Mode instead).',
    );
  }
  return problems;
}

const SLACK_VARIABLES = [
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
] as const;

/** What is missing when Slack is set up half-way, naming the variables; `undefined` otherwise. */
export function slackMissing(config: Config, role: 'web' | 'worker' | 'all'): string | undefined {
  const touched = SLACK_VARIABLES.filter((name) => Boolean(config[name]));
  if (touched.length === 0) return undefined;
  if (config.SLACK_CLIENT_ID && !config.SLACK_CLIENT_SECRET)
    return 'set SLACK_CLIENT_SECRET (with SLACK_CLIENT_ID).';
  if (config.SLACK_CLIENT_SECRET && !config.SLACK_CLIENT_ID)
    return 'set SLACK_CLIENT_ID (with SLACK_CLIENT_SECRET).';
  const settings = slackSettings(config);
  if (!settings) {
    if (config.SLACK_BOT_TOKEN) {
      return 'set SLACK_SIGNING_SECRET (Slack posts to PUBLIC_URL/slack/events) or SLACK_APP_TOKEN (Socket Mode) with SLACK_BOT_TOKEN.';
    }
    return `${touched.join(', ')} set, but no SLACK_BOT_TOKEN (one workspace) or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (installs): set one of them.`;
  }
  const problems = settingsProblems(settings, role);
  return problems.length > 0 ? problems.join(' ') : undefined;
}
