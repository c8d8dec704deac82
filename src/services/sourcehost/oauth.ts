/**
 * The OAuth 2.0 web application flow on the source host's web host: the authorize address (with
 * `state` and a PKCE S256 challenge) and the code exchange, which asks for JSON and checks the body
 * for `error` first, because the token endpoint answers its errors with HTTP 200.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { UpstreamError } from '../../core/errors';
import { HttpClient } from '../http';
import { OAuthTokenError, readSourcehostError } from './errors';
import { parseScopes } from './scopes';

/** The OAuth application Deckhand is registered as. */
export interface OAuthAppOptions {
  /** Web host, e.g. `https://github.com`. */
  webUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs?: number | undefined;
}

/** A granted token. */
export interface GrantedToken {
  accessToken: string;
  /** The scopes granted (normalised by the service; may be fewer than asked). */
  scopes: string[];
  tokenType: string;
}

/** What goes into an authorize address. */
export interface AuthorizeRequest {
  redirectUri: string;
  scopes: readonly string[];
  state: string;
  codeChallenge: string;
}

const TokenAnswerSchema = z.looseObject({
  access_token: z.string().optional(),
  scope: z.string().optional(),
  token_type: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** A PKCE verifier (secret, kept until the exchange) and its S256 challenge (in the address). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The web flow of one OAuth application. */
export class OAuthWebFlow {
  private readonly http: HttpClient;

  constructor(private readonly options: OAuthAppOptions) {
    this.http = new HttpClient({
      service: 'sourcehost',
      baseUrl: options.webUrl,
      retries: 0,
      timeoutMs: options.timeoutMs,
      headers: { 'user-agent': 'Deckhand' },
      readError: readSourcehostError,
    });
  }

  /** The application's client id. */
  get clientId(): string {
    return this.options.clientId;
  }

  /** The address to send the user to. */
  authorizeUrl(request: AuthorizeRequest): string {
    const url = new URL('/login/oauth/authorize', this.options.webUrl);
    url.searchParams.set('client_id', this.options.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    url.searchParams.set('scope', request.scopes.join(' '));
    url.searchParams.set('state', request.state);
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('allow_signup', 'false');
    return url.toString();
  }

  /** Exchanges a callback's `code`; throws {@link OAuthTokenError} for the endpoint's own errors. */
  async exchange(input: { code: string; redirectUri: string; codeVerifier: string }): Promise<GrantedToken> {
    const response = await this.http.raw('POST', '/login/oauth/access_token', {
      form: {
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
      },
      headers: { accept: 'application/json' },
      route: '/login/oauth/access_token',
    });
    if (response.status >= 400) throw this.http.errorFor(response.status, response.text);
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      body = undefined;
    }
    const answer = TokenAnswerSchema.safeParse(body);
    if (!answer.success) {
      throw new UpstreamError('sourcehost', 502, (say) => ({
        message: say.t('sourcehost-api-unreadable-token-answer'),
      }));
    }
    if (answer.data.error) throw new OAuthTokenError(answer.data.error, answer.data.error_description);
    if (!answer.data.access_token) {
      throw new UpstreamError('sourcehost', 502, (say) => ({ message: say.t('sourcehost-api-no-token') }));
    }
    return {
      accessToken: answer.data.access_token,
      scopes: parseScopes(answer.data.scope ?? ''),
      tokenType: answer.data.token_type ?? 'bearer',
    };
  }

  /** The settings page where the user reviews and revokes this application's access. */
  revokeUrl(): string {
    return new URL(
      `/settings/connections/applications/${encodeURIComponent(this.options.clientId)}`,
      this.options.webUrl,
    ).toString();
  }

  /** Closes the connection pool. */
  close(): Promise<void> {
    return this.http.close();
  }
}
