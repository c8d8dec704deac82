/** `deckhand doctor`'s configuration line for Slack (no network). */
import type { Config } from '../../src/config';
import { type CheckResult, fail, ok } from '../doctor-kit';
import { slackMissing, slackSettings } from './settings';

/** Half-set, contradictory, or which mode runs. */
export function slackSettingsCheck(config: Config): CheckResult | undefined {
  const label = 'Slack settings';
  const problem = slackMissing(config, 'all');
  const half = problem ? fail(label, problem) : undefined;
  const settings = slackSettings(config);
  if (half || !settings) return half;
  if (settings.oauth && !config.PUBLIC_URL) {
    return fail(
      label,
      'SLACK_CLIENT_ID/SLACK_CLIENT_SECRET need PUBLIC_URL (the install redirect is PUBLIC_URL/slack/oauth_redirect).',
    );
  }
  const how = settings.oauth ? 'OAuth installs' : 'one workspace';
  return ok(label, `${how}, ${settings.mode === 'socket' ? 'Socket Mode' : 'HTTP events'}.`);
}
