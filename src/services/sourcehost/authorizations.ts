/**
 * The legacy OAuth authorizations and grants API, which takes a username and password (Basic
 * authentication, with a one-time password under two-factor authentication). Implemented for
 * completeness of the seed's contract; Deckhand offers no chat command for it, because chat must
 * never carry passwords (tokens come from the OAuth web flow instead).
 */

import { enc } from './account';
import {
  type Authorization,
  type AuthorizationInput,
  AuthorizationSchema,
  type AuthorizationUpdate,
  type Grant,
  GrantSchema,
} from './authorizations-schemas';
import type { PageOptions } from './migrations';
import type { SourcehostAuth, SourcehostTransport } from './transport';

/** Grants and authorizations of the account whose password is given. */
export class AuthorizationsApi {
  constructor(
    private readonly transport: SourcehostTransport,
    private readonly auth: Extract<SourcehostAuth, { kind: 'basic' }>,
  ) {}

  /** Applications the account granted access to. */
  listGrants(options: PageOptions = {}): Promise<Grant[]> {
    return this.transport.list('/applications/grants', GrantSchema, {
      auth: this.auth,
      route: '/applications/grants',
      ...page(options),
    });
  }

  /** One grant. */
  getGrant(id: number): Promise<Grant> {
    return this.transport.json('GET', `/applications/grants/${id}`, GrantSchema, {
      auth: this.auth,
      route: '/applications/grants/{grant_id}',
    });
  }

  /** Revokes a grant and every token of that application for the account. */
  async deleteGrant(id: number): Promise<void> {
    await this.transport.empty('DELETE', `/applications/grants/${id}`, {
      auth: this.auth,
      route: '/applications/grants/{grant_id}',
    });
  }

  /** The account's authorizations (tokens are empty except at creation). */
  list(options: PageOptions = {}): Promise<Authorization[]> {
    return this.transport.list('/authorizations', AuthorizationSchema, {
      auth: this.auth,
      route: '/authorizations',
      ...page(options),
    });
  }

  /** Creates an authorization (the only answer that carries the token). */
  create(input: AuthorizationInput): Promise<Authorization> {
    return this.transport.json('POST', '/authorizations', AuthorizationSchema, {
      auth: this.auth,
      route: '/authorizations',
      body: input,
    });
  }

  /** Gets the application's authorization or creates one (`fingerprint` tells several apart). */
  getOrCreateForApp(
    clientId: string,
    input: AuthorizationInput & { client_secret: string },
  ): Promise<Authorization> {
    const { fingerprint, ...rest } = input;
    if (fingerprint) {
      return this.transport.json(
        'PUT',
        `/authorizations/clients/${enc(clientId)}/${enc(fingerprint)}`,
        AuthorizationSchema,
        {
          auth: this.auth,
          route: '/authorizations/clients/{client_id}/{fingerprint}',
          body: rest,
        },
      );
    }
    return this.transport.json('PUT', `/authorizations/clients/${enc(clientId)}`, AuthorizationSchema, {
      auth: this.auth,
      route: '/authorizations/clients/{client_id}',
      body: rest,
    });
  }

  /** One authorization. */
  get(id: number): Promise<Authorization> {
    return this.transport.json('GET', `/authorizations/${id}`, AuthorizationSchema, {
      auth: this.auth,
      route: '/authorizations/{authorization_id}',
    });
  }

  /** Changes an authorization's scopes (one of the three scope keys) or note. */
  update(id: number, input: AuthorizationUpdate): Promise<Authorization> {
    return this.transport.json('PATCH', `/authorizations/${id}`, AuthorizationSchema, {
      auth: this.auth,
      route: '/authorizations/{authorization_id}',
      body: input,
    });
  }

  /** Deletes an authorization. */
  async delete(id: number): Promise<void> {
    await this.transport.empty('DELETE', `/authorizations/${id}`, {
      auth: this.auth,
      route: '/authorizations/{authorization_id}',
    });
  }
}

function page(options: PageOptions) {
  return {
    ...(options.perPage ? { perPage: options.perPage } : {}),
    ...(options.page ? { page: options.page } : {}),
  };
}
