/**
 * The fake's application: `GET /applications/@me` (operation get_my_application, schema
 * PrivateApplicationResponse in specs/platforms/discord-openapi.json; discord-api-docs
 * resources/Application.md "Get Current Application"). Every field the schema requires is present;
 * `deckhand doctor` reads `interactions_endpoint_url` and `verify_key`. Bot authorization is checked by
 * the server before routing (the operation's only security scheme is BotToken).
 */
import type { GatewayIdentity } from './gateway';
import type { RouteAnswer } from './wire';

/** What `GET /applications/@me` reports of the application's settings. */
export interface FakeApplication {
  name: string;
  /** Hex Ed25519 public key (the Developer Portal's "Public Key"). */
  verifyKey: string;
  /**
   * The Interactions Endpoint URL, `null` when none is set. With one set, Discord sends interactions
   * "via HTTP POSTs rather than over Gateway"
   * (discord.com/developers/docs/interactions/receiving-and-responding#receiving-an-interaction).
   */
  interactionsEndpointUrl: string | null;
}

/** The answer of `GET /applications/@me`. */
export function applicationJson(identity: GatewayIdentity, application: FakeApplication): RouteAnswer {
  const owner = {
    id: identity.botId,
    username: application.name,
    avatar: null,
    discriminator: '0',
    public_flags: 0,
    flags: 0,
    global_name: null,
    primary_guild: null,
    bot: true,
  };
  return {
    status: 200,
    body: {
      id: identity.applicationId,
      name: application.name,
      icon: null,
      description: '',
      type: null,
      bot: owner,
      bot_public: false,
      bot_require_code_grant: false,
      verify_key: application.verifyKey,
      flags: 0,
      flags_new: '0',
      redirect_uris: [],
      interactions_endpoint_url: application.interactionsEndpointUrl,
      role_connections_verification_url: null,
      owner,
      approximate_guild_count: 1,
      approximate_user_install_count: 0,
      approximate_user_authorization_count: 0,
      explicit_content_filter: 0,
      team: null,
      eligible_oauth2_scopes: [],
    },
  };
}
