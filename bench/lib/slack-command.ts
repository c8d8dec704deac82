/**
 * Signed Slack slash-command requests for load generators: each one fresh (its own trigger id and
 * response URL, so Deckhand's re-delivery dedupe never short-circuits it) and signed like Slack signs.
 */
import { randomBytes } from 'node:crypto';
import { signSlackRequest } from '../../test/fakes/slack';

/** Who types the command and where. */
export interface CommandPlace {
  teamId: string;
  channel: string;
  userId: string;
  userName: string;
  /** Base of the fake's response URLs (`<fake>/response/`). */
  responseBase: string;
}

let seq = 0;

/** The form body and headers of one signed slash command (`/deploy mytool`). */
export function signedCommand(
  secret: string,
  place: CommandPlace,
  line: string,
): { body: string; headers: Record<string, string> } {
  const [command = '', ...rest] = line.split(' ');
  seq += 1;
  const fields = {
    token: 'deprecated-verification-token',
    team_id: place.teamId,
    team_domain: 'bench',
    channel_id: place.channel,
    channel_name: 'ops',
    user_id: place.userId,
    user_name: place.userName,
    command,
    text: rest.join(' '),
    api_app_id: 'A0TEST',
    is_enterprise_install: 'false',
    response_url: `${place.responseBase}${randomBytes(6).toString('hex')}`,
    trigger_id: `${seq}.${Date.now()}.${randomBytes(4).toString('hex')}`,
  };
  const body = new URLSearchParams(fields).toString();
  return {
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(secret, body) },
  };
}
