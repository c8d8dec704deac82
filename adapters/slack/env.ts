import { z } from 'zod';
import { type EnvVar, listOf, optionalUrl } from '../../src/config-schema';

/** The Slack adapter's environment variables (merged into the configuration schema). */
export const SLACK_ENV = {
  SLACK_BOT_TOKEN: {
    schema: z.string().startsWith('xoxb-', 'must be a bot token starting with xoxb-').optional(),
    description:
      'Slack bot token (single workspace). With `SLACK_SIGNING_SECRET` (HTTP) or `SLACK_APP_TOKEN` (Socket Mode) it turns the Slack adapter on.',
  },
  SLACK_SIGNING_SECRET: {
    schema: z.string().min(1).optional(),
    description: 'Slack signing secret; requests to `/slack/events` are verified with it.',
  },
  SLACK_APP_TOKEN: {
    schema: z.string().startsWith('xapp-', 'must be an app-level token starting with xapp-').optional(),
    description: 'Slack app-level token: use Socket Mode instead of HTTP.',
  },
  SLACK_CLIENT_ID: {
    schema: z.string().min(1).optional(),
    description: 'Slack OAuth client id, for installing the app in several workspaces.',
  },
  SLACK_CLIENT_SECRET: {
    schema: z.string().min(1).optional(),
    description: 'Slack OAuth client secret (with `SLACK_CLIENT_ID`).',
  },
  SLACK_STATE_SECRET: {
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    description: 'Secret that signs the Slack installation `state` (multi-workspace installs).',
  },
  SLACK_COMMAND: {
    schema: z
      .string()
      .regex(
        /^[a-z0-9_-]{1,31}$/,
        'a slash command name without the slash: lowercase letters, digits, - and _',
      )
      .default('deckhand'),
    description:
      'The one Slack slash command (without `/`): `/deckhand deploy mytool`. Help, usage and hints on Slack show this form.',
  },
  SLACK_LEGACY_COMMANDS: {
    schema: listOf(/^[a-z][a-z0-9-]*$/, 'deploy,build,jobs (or all)'),
    description:
      'Also register these command groups as their own Slack slash commands (`/deploy`, …), comma-separated, or `all`. Off by default: generic names collide with other apps.',
    defaultText: 'none',
  },
  SLACK_API_URL: {
    schema: optionalUrl,
    description: 'Base of the Slack Web API (tests point it at a local fake).',
    defaultText: '`https://slack.com/api/`',
  },
} satisfies Record<string, EnvVar>;
