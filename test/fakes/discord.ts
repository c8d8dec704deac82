/**
 * The fake Discord for adapter tests: REST + gateway + CDN on one local port (discord.js runs
 * against it unchanged), every request validated against Discord's OpenAPI description, and
 * builders for the interactions a user causes. See `test/fakes/discord/`.
 */
export {
  autocomplete,
  buttonClick,
  type InteractionPlace,
  modalSubmit,
  ping,
  slashCommand,
} from './discord/payloads';
export { FakeDiscord, type RecordedRequest, startFakeDiscord } from './discord/server';
export type { FakeInteraction, FakeMessage } from './discord/store';
