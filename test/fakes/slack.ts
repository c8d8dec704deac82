/**
 * The Slack fake for adapter tests: a real local server for the Web API (validated against Slack's
 * API description), `response_url`s, file hosting/uploads and Socket Mode, plus a driver that sends
 * correctly signed requests or Socket Mode envelopes to the bot. See `slack/` for the parts.
 */
export { checkMessage, checkView } from './slack/blockkit';
export {
  type Delivery,
  type DriverTarget,
  type SendOptions,
  type SlackActor,
  SlackDriver,
  signSlackRequest,
} from './slack/requests';
export {
  type FakeMessage,
  FakeSlack,
  type FakeSlackOptions,
  type RecordedCall,
  type Scripted,
} from './slack/server';
export { loadSlackSpec } from './slack/spec';
