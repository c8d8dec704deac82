/**
 * A fake Matrix homeserver on 127.0.0.1: the Client-Server API endpoints the adapter uses (versions,
 * login, whoami, sync with invites, join, leave, createRoom, send, media upload and download). Every
 * request is recorded and validated against the published OpenAPI description (./spec.ts) and the
 * event rules of the specification (./event-rules.ts); a violation is recorded and answered 400.
 * A test can answer the next requests of an operation with a 429 `M_LIMIT_EXCEEDED` carrying
 * `retry_after_ms`, or with any other error. People act through ./people.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeldAnswer } from '../hold';
import { eventProblems } from './event-rules';
import { type Answer, handleOperation } from './operations';
import { checkMatrixAnswer, checkMatrixRequest } from './spec';
import { HomeserverState } from './state';

/** One request as the fake saw it. */
export interface RecordedCall {
  method: string;
  path: string;
  operationId: string | undefined;
  params: Record<string, string>;
  query: Record<string, string>;
  /** JSON body, or the byte count of a media upload. */
  body: unknown;
  status: number;
}

interface Injection {
  operationId: string;
  status: number;
  body: Record<string, unknown>;
  remaining: number;
}

/** See the module comment. */
export class FakeHomeserver {
  readonly state: HomeserverState;
  readonly calls: RecordedCall[] = [];
  readonly violations: string[] = [];
  /** Access token → user id (the bot's; people act without the HTTP API). */
  readonly tokens = new Map<string, string>();
  readonly passwords = new Map<string, string>();
  readonly botUserId: string;
  readonly botToken: string;
  private readonly injections: Injection[] = [];
  private readonly holds = new Map<string, HeldAnswer[]>();
  private server!: Server;
  port = 0;

  constructor(readonly serverName = 'fake.test') {
    this.state = new HomeserverState(serverName);
    this.botUserId = `@deckhand:${serverName}`;
    this.botToken = 'syt_fake_bot_token';
    this.tokens.set(this.botToken, this.botUserId);
    this.passwords.set(this.botUserId, 'bot-password');
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.violations.push(`fake error: ${String(error)}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next `times` requests of `operationId` (e.g. `sendMessage`) get a 429 with `retry_after_ms`. */
  rateLimit(operationId: string, retryAfterMs: number, times = 1): void {
    const body = { errcode: 'M_LIMIT_EXCEEDED', error: 'Too many requests', retry_after_ms: retryAfterMs };
    this.injections.push({ operationId, status: 429, body, remaining: times });
  }

  /** The next `times` requests of `operationId` fail with `status` and the Matrix error body. */
  fault(operationId: string, status: number, errcode: string, error: string, times = 1): void {
    this.injections.push({ operationId, status, body: { errcode, error }, remaining: times });
  }

  /**
   * The next request of `operationId` is carried out (an event is stored) but its answer is held
   * until released or the client goes away (a crash between the request and its answer).
   */
  holdNext(operationId: string): HeldAnswer {
    const held = new HeldAnswer();
    this.holds.set(operationId, [...(this.holds.get(operationId) ?? []), held]);
    return held;
  }

  /** Calls of one operation. */
  callsOf(operationId: string): RecordedCall[] {
    return this.calls.filter((c) => c.operationId === operationId);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = decodeURIComponent(url.pathname);
    const query = Object.fromEntries(url.searchParams);
    const raw = await readBody(req);
    const upload = path.startsWith('/_matrix/media/v3/upload');
    let body: unknown;
    if (raw.length > 0 && !upload) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        this.violations.push(`${req.method} ${path}: the body is not JSON`);
      }
    }
    const headers = { authorization: req.headers.authorization };
    const request = { method: req.method ?? 'GET', path, query, headers, body: upload ? raw : body };
    const { match, violations } = await checkMatrixRequest(request);
    if (match?.operationId === 'sendMessage')
      for (const problem of eventProblems(match.params.eventType ?? '', body))
        violations.push(`${req.method} ${path}: ${problem}`);
    const call: RecordedCall = {
      method: request.method,
      path,
      operationId: match?.operationId,
      params: match?.params ?? {},
      query,
      body: upload ? raw.length : body,
      status: 0,
    };
    this.calls.push(call);
    const answer = (status: number, json: unknown, type = 'application/json'): void => {
      call.status = status;
      const payload = Buffer.isBuffer(json) ? json : Buffer.from(JSON.stringify(json));
      res.writeHead(status, { 'content-type': type, 'content-length': payload.length }).end(payload);
    };
    if (violations.length > 0 || !match) {
      this.violations.push(...violations);
      answer(match ? 400 : 404, {
        errcode: match ? 'M_BAD_JSON' : 'M_UNRECOGNIZED',
        error: violations.join('; '),
      });
      return;
    }
    const injected = this.injections.find((i) => i.operationId === match.operationId && i.remaining > 0);
    if (injected) {
      injected.remaining -= 1;
      this.violations.push(...(await checkMatrixAnswer(match.operationId, injected.status, injected.body)));
      answer(injected.status, injected.body);
      return;
    }
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const user = token ? this.tokens.get(token) : undefined;
    if (token && !user) {
      answer(401, { errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.', soft_logout: false });
      return;
    }
    const result: Answer = await handleOperation(this, {
      operationId: match.operationId,
      params: match.params,
      query,
      body: upload ? raw : body,
      user,
      token,
      contentType: req.headers['content-type'],
      closed: () => req.socket.destroyed,
    });
    if (!Buffer.isBuffer(result.json))
      this.violations.push(...(await checkMatrixAnswer(match.operationId, result.status, result.json)));
    const held = this.holds.get(match.operationId)?.shift();
    if (held && !(await held.hold(res))) return;
    answer(result.status, result.json, result.type);
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a fake homeserver on a free port. */
export async function startFakeHomeserver(serverName?: string): Promise<FakeHomeserver> {
  const fake = new FakeHomeserver(serverName);
  await fake.listen();
  return fake;
}
