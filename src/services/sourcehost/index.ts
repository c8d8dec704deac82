/**
 * Typed client of the source host (GitHub REST subset + OAuth web flow): accounts, repository
 * permissions, repository files, rate limits, migrations, source imports, the legacy authorizations API, webhooks.
 *
 * ```ts
 * const sourcehost = new SourcehostFactory({ apiUrl, webUrl, clientId, clientSecret });
 * const me = await sourcehost.forToken(token).account.me();
 * ```
 */
export { AccountApi } from './account';
export { AuthorizationsApi } from './authorizations';
export * from './authorizations-schemas';
export { SourcehostClient, SourcehostFactory, type SourcehostOptions } from './client';
export * from './commits';
export * from './contents';
export { localTime, OAuthTokenError, RateLimitedError, readSourcehostError } from './errors';
export { ImportsApi, type StartImportInput } from './imports';
export * from './imports-schemas';
export { MigrationsApi, migrationOwner, type PageOptions } from './migrations';
export * from './migrations-schemas';
export { type AuthorizeRequest, type GrantedToken, OAuthWebFlow, pkcePair } from './oauth';
export * from './schemas';
export { missingScopes, parseScopes, SCOPES, unionScopes } from './scopes';
export {
  ACCEPT_MIGRATIONS_PREVIEW,
  ACCEPT_V3,
  API_VERSION,
  type RateWindow,
  type SourcehostAuth,
  SourcehostTransport,
} from './transport';
export { signWebhook, verifyWebhook } from './webhooks';
