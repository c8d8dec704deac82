/**
 * Chooses, per tool, how Deckhand talks to the platform: a tool with a client certificate uses the
 * internal server with mTLS (every operation); a tool with only a deploy token uses the external
 * server, where only deployment create/show work (`?token=`). HTTP connection pools are cached per
 * (server, tool); clients are cheap views over them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config';
import { UsageError } from '../../core/errors';
import { HttpClient } from '../http';
import { type ToolhostAuthMode, ToolhostClient } from './client';
import { noCredentials, noServer, ToolhostAccessError, toolhostSaid } from './errors';
import { type ApiHealth, platformHealth } from './platform-health';
import { type ToolhostAuth, ToolhostSession } from './session';
import { WarningInbox, WarningLedger, type WarningListener } from './warnings';

/** A tool's client certificate and key (PEM), as in the tool's `~/.toolskube/client.crt|key`. */
export interface ClientCertificate {
  cert: string;
  key: string;
}

/** Options of a {@link ToolhostClientFactory}. */
export interface ToolhostClientFactoryOptions {
  /** External server (deploy tokens), e.g. `https://api.svc.toolforge.org`. */
  externalUrl?: string | undefined;
  /** Internal server (client certificates), e.g. `https://api.svc.tools.eqiad1.wikimedia.cloud:30003`. */
  internalUrl?: string | undefined;
  /** Directory of `<tool>/client.crt` and `<tool>/client.key`. */
  certDir?: string | undefined;
  /** Certificates given programmatically; they win over {@link certDir}. */
  certificates?: Record<string, ClientCertificate> | ((tool: string) => ClientCertificate | undefined);
  /** CA (PEM) to trust for the internal server… */
  ca?: string | undefined;
  /** …or the file to read it from. */
  caFile?: string | undefined;
  /** Bot-wide deploy tokens by tool. */
  deployTokens?: Record<string, string>;
  /** Per-request timeout in ms (default 15 000). */
  timeoutMs?: number;
  /** Retries of idempotent requests (default 2). */
  retries?: number;
  /** First retry delay in ms (default 250). */
  retryDelayMs?: number;
  /** Called once per warning text per process when first received (e.g. to log it). */
  onWarning?: WarningListener;
  /**
   * Where a tool's published job answers. Default `https://<tool>.toolforge.org/` (the jobs API
   * routes host `<tool>.<public domain>`, J `tjf/runtimes/k8s/httproute.py`); the sandbox its own front.
   */
  publicUrl?: (tool: string) => string;
}

/**
 * What a factory needs from a running platform emulator; `@deckhand/sandbox/toolhost`'s sandbox fits
 * (structurally, so this module does not depend on the sandbox).
 */
export interface ToolhostSandboxEndpoints {
  externalUrl: string;
  internalUrl: string;
  /** CA of the internal server. */
  ca: string;
  /** A tool's client certificate; may throw for a tool that does not exist. */
  certFor(tool: string): ClientCertificate;
}

/** Options of {@link ToolhostClientFactory.forTool}. */
export interface ForToolOptions {
  /**
   * A deploy token for this call (e.g. the user's own, from the account vault); wins over the
   * bot-wide one. Ignored when the tool has a client certificate, which can do more.
   */
  deployToken?: string | undefined;
  /** Use {@link deployToken} even when the tool has a client certificate (to check the token). */
  tokenOnly?: boolean;
}

const TOOL_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

/** Makes {@link ToolhostClient}s: one factory per process. */
export class ToolhostClientFactory {
  private readonly https = new Map<string, HttpClient>();
  private readonly certificates = new Map<string, ClientCertificate>();
  private readonly tokens = new Map<string, string>();
  private readonly ledger: WarningLedger;
  private ca: string | undefined;

  constructor(private readonly options: ToolhostClientFactoryOptions = {}) {
    this.ledger = new WarningLedger(options.onWarning);
    for (const [tool, token] of Object.entries(options.deployTokens ?? {})) this.tokens.set(tool, token);
    if (typeof options.certificates === 'object') {
      for (const [tool, cert] of Object.entries(options.certificates)) this.certificates.set(tool, cert);
    }
    this.ca = options.ca;
  }

  /** A factory from the `TOOLHOST_*` configuration. */
  static fromConfig(
    config: Pick<
      Config,
      | 'TOOLHOST_URL'
      | 'TOOLHOST_INTERNAL_URL'
      | 'TOOLHOST_CERT_DIR'
      | 'TOOLHOST_CA_FILE'
      | 'TOOLHOST_DEPLOY_TOKENS'
      | 'TOOLHOST_TIMEOUT_MS'
    >,
    extra: Partial<ToolhostClientFactoryOptions> = {},
  ): ToolhostClientFactory {
    const deployTokens: Record<string, string> = {};
    for (const entry of config.TOOLHOST_DEPLOY_TOKENS) {
      const at = entry.indexOf('=');
      deployTokens[entry.slice(0, at)] = entry.slice(at + 1);
    }
    return new ToolhostClientFactory({
      externalUrl: config.TOOLHOST_URL,
      internalUrl: config.TOOLHOST_INTERNAL_URL,
      certDir: config.TOOLHOST_CERT_DIR,
      caFile: config.TOOLHOST_CA_FILE,
      deployTokens,
      timeoutMs: config.TOOLHOST_TIMEOUT_MS,
      ...extra,
    });
  }

  /** A factory for the sandbox: every tool that exists there has a client certificate. */
  static forSandbox(
    sandbox: ToolhostSandboxEndpoints,
    extra: Partial<ToolhostClientFactoryOptions> = {},
  ): ToolhostClientFactory {
    return new ToolhostClientFactory({
      externalUrl: sandbox.externalUrl,
      internalUrl: sandbox.internalUrl,
      ca: sandbox.ca,
      certificates: (tool) => {
        try {
          return sandbox.certFor(tool);
        } catch {
          return undefined;
        }
      },
      ...extra,
    });
  }

  /**
   * A client for `tool`. Throws a {@link ToolhostAccessError} (a `PermissionDenied`) naming the
   * configuration to set when Deckhand has no credentials for it or no URL for the server to use.
   */
  forTool(tool: string, options: ForToolOptions = {}): ToolhostClient {
    const auth = this.authFor(tool, options);
    if (!auth) throw noCredentials(tool);
    const http = auth.mode === 'certificate' ? this.internalHttp(tool) : this.externalHttp(tool);
    const inbox = new WarningInbox(this.ledger, tool);
    return new ToolhostClient(new ToolhostSession(tool, auth, http, inbox), inbox);
  }

  /** How `tool` would authenticate (certificate first, then a deploy token), or undefined. */
  authModeFor(tool: string, options: ForToolOptions = {}): ToolhostAuthMode | undefined {
    return this.authFor(tool, options)?.mode;
  }

  /** Gives (or replaces) a tool's client certificate. */
  setCertificate(tool: string, certificate: ClientCertificate): void {
    this.certificates.set(tool, certificate);
    this.dropHttp(`internal|${tool}`);
  }

  /** Gives, replaces or (with undefined) removes a tool's bot-wide deploy token. */
  setDeployToken(tool: string, token: string | undefined): void {
    if (token) this.tokens.set(tool, token);
    else this.tokens.delete(tool);
  }

  /**
   * The health of each of the platform's APIs (unauthenticated endpoints), read through the external
   * server, else the internal one; empty when no server is configured.
   */
  async platformHealth(): Promise<ApiHealth[]> {
    const baseUrl = this.options.externalUrl ?? this.options.internalUrl;
    if (!baseUrl) return [];
    const ca = baseUrl === this.options.externalUrl ? undefined : this.caPem();
    let client = this.https.get('health');
    if (!client) {
      client = new HttpClient({
        service: 'toolhost',
        baseUrl,
        ...(ca ? { tls: { ca } } : {}),
        timeoutMs: Math.min(this.options.timeoutMs ?? 15_000, 10_000),
        retries: 0,
        readError: toolhostSaid,
      });
      this.https.set('health', client);
    }
    return platformHealth(client);
  }

  /** Where a tool's published job (its web service) answers: `https://<tool>.toolforge.org/` by default. */
  publicUrl(tool: string): string {
    return this.options.publicUrl ? this.options.publicUrl(tool) : `https://${tool}.toolforge.org/`;
  }

  /** Closes every connection pool. */
  async close(): Promise<void> {
    const clients = [...this.https.values()];
    this.https.clear();
    await Promise.allSettled(clients.map((client) => client.close()));
  }

  private authFor(tool: string, options: ForToolOptions): ToolhostAuth | undefined {
    if (!TOOL_NAME.test(tool)) {
      throw UsageError.inWords((say) => ({
        message: say.t('validation-not-tool-name', tool),
        hint: say.t('validation-tool-name-hint'),
      }));
    }
    if (options.tokenOnly)
      return options.deployToken ? { mode: 'token', token: options.deployToken } : undefined;
    if (this.certificateOf(tool)) return { mode: 'certificate' };
    const token = options.deployToken || this.tokens.get(tool);
    return token ? { mode: 'token', token } : undefined;
  }

  private certificateOf(tool: string): ClientCertificate | undefined {
    const known = this.certificates.get(tool);
    if (known) return known;
    const given =
      typeof this.options.certificates === 'function' ? this.options.certificates(tool) : undefined;
    if (given) return given;
    const dir = this.options.certDir;
    if (!dir) return undefined;
    const certFile = join(dir, tool, 'client.crt');
    const keyFile = join(dir, tool, 'client.key');
    if (!existsSync(certFile) || !existsSync(keyFile)) return undefined;
    try {
      const pair = { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
      this.certificates.set(tool, pair);
      return pair;
    } catch (error) {
      const why = (error as Error).message;
      throw new ToolhostAccessError('no-credentials', tool, (say) => ({
        message: say.t('toolhost-api-certificate-unreadable', tool, why),
        hint: say.t('toolhost-api-certificate-permissions-hint', certFile, keyFile),
      }));
    }
  }

  private internalHttp(tool: string): HttpClient {
    const baseUrl = this.options.internalUrl;
    if (!baseUrl) throw noServer(tool, 'TOOLHOST_INTERNAL_URL');
    const certificate = this.certificateOf(tool) as ClientCertificate;
    return this.http(`internal|${tool}`, baseUrl, { ...certificate, ca: this.caPem() });
  }

  private externalHttp(tool: string): HttpClient {
    const baseUrl = this.options.externalUrl;
    if (!baseUrl) throw noServer(tool, 'TOOLHOST_URL');
    return this.http(`external|${tool}`, baseUrl);
  }

  private http(key: string, baseUrl: string, tls?: { cert: string; key: string; ca?: string | undefined }) {
    let client = this.https.get(key);
    if (!client) {
      client = new HttpClient({
        service: 'toolhost',
        baseUrl,
        ...(tls ? { tls: { cert: tls.cert, key: tls.key, ...(tls.ca ? { ca: tls.ca } : {}) } } : {}),
        timeoutMs: this.options.timeoutMs,
        retries: this.options.retries,
        retryDelayMs: this.options.retryDelayMs,
        readError: toolhostSaid,
      });
      this.https.set(key, client);
    }
    return client;
  }

  private dropHttp(key: string): void {
    const client = this.https.get(key);
    if (!client) return;
    this.https.delete(key);
    void client.close().catch(() => {});
  }

  private caPem(): string | undefined {
    if (this.ca === undefined && this.options.caFile) {
      try {
        this.ca = readFileSync(this.options.caFile, 'utf8');
      } catch (error) {
        const file = this.options.caFile;
        const why = (error as Error).message;
        throw new ToolhostAccessError('no-server', '', (say) => ({
          message: say.t('toolhost-api-ca-unreadable', file, why),
        }));
      }
    }
    return this.ca;
  }
}
