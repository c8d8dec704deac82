import type { AdapterContext, ManifestSpec, PlatformAdapter } from '../types';
import { SlackAdapter, type SlackAdapterOptions } from './adapter';
import { slackManifestSpec } from './manifest';
import { slackSettings } from './settings';

/**
 * The Slack adapter when Slack is configured (`SLACK_BOT_TOKEN` with `SLACK_SIGNING_SECRET` or
 * `SLACK_APP_TOKEN`, or the OAuth pair `SLACK_CLIENT_ID`/`SLACK_CLIENT_SECRET`); undefined otherwise.
 */
export function createSlackAdapter(
  context: AdapterContext,
  options: SlackAdapterOptions = {},
): PlatformAdapter | undefined {
  const settings = slackSettings(context.config);
  return settings ? new SlackAdapter(context, settings, options) : undefined;
}

/** The Slack app manifest generated from the command registry (`deckhand manifest slack`). */
export const slackManifest: ManifestSpec | undefined = slackManifestSpec;

export type { SlackAdapter, SlackAdapterOptions } from './adapter';
