/**
 * A local Slack: the Web API methods Deckhand calls, `response_url`s, file hosting and upload URLs,
 * and Socket Mode (see socket.ts), on 127.0.0.1. Every Web API call is recorded, validated against
 * Slack's API description (spec.ts) and Block Kit limits (blockkit.ts) — a violation is answered
 * like Slack does (`ok: false`) and kept in `violations`, which tests assert to be empty. Tests can
 * script 429s (with Retry-After), 500s, slow answers and Slack errors per method. What the methods do
 * is in workspace.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import { wallClockMs } from '../../support/wall-clock';
import { HeldAnswer } from '../hold';
import { checkHomeView, checkMessage, checkUnfurls, checkView } from './blockkit';
import { FakeSocketMode } from './socket';
import { loadSlackSpec, type SlackSpec } from './spec';
import { type FakeSlackOptions, SlackWorkspace } from './workspace';

export type { FakeMessage, FakeSlackOptions } from './workspace';

/** One Web API call as the fake saw it. */
export interface RecordedCall {
  method: string;
  /** Form fields as sent. */
  form: Record<string, string>;
  /** Form fields with JSON fields (`attachments`, `blocks`, `view`, `files`) parsed. */
  body: Record<string, unknown>;
  token: string | undefined;
  /** HTTP status answered. */
  status: number;
  /** Slack error answered, if any. */
  error?: string;
  /** When the call was read (wall clock, ms with a fraction: see `wall-clock.ts`). */
  at: number;
}

/** A scripted answer for the next call of a method. */
export type Scripted =
  | { status: 429; retryAfter: number }
  | { status: 500 }
  | { error: string }
  /** Answers normally, but only after this long (a slow Slack). */
  | { delayMs: number }
  /** Carries the call out, then holds the answer until released or the client goes away. */
  | { hold: HeldAnswer };

const JSON_FIELDS = ['attachments', 'blocks', 'view', 'files', 'metadata', 'unfurls'];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function parseMultipart(req: IncomingMessage, raw: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parser = busboy({ headers: req.headers });
    const parts: Buffer[] = [];
    parser.on('file', (_name, stream) => {
      stream.on('data', (chunk: Buffer) => parts.push(chunk));
    });
    parser.on('field', (_name, value) => parts.push(Buffer.from(value)));
    parser.on('close', () => resolve(Buffer.concat(parts)));
    parser.on('error', reject);
    parser.end(raw);
  });
}

/** The fake Slack server. */
export class FakeSlack extends SlackWorkspace {
  readonly calls: RecordedCall[] = [];
  readonly violations: string[] = [];
  private readonly scripts = new Map<string, Scripted[]>();
  private readonly conditional: {
    method: string;
    when: (form: Record<string, string>) => boolean;
    answer: Scripted;
  }[] = [];

  private constructor(
    private readonly server: Server,
    private readonly spec: SlackSpec,
    options: FakeSlackOptions,
  ) {
    super(options, new FakeSocketMode(server));
  }

  /** Starts a fake on a free port of 127.0.0.1. */
  static async start(options: FakeSlackOptions = {}): Promise<FakeSlack> {
    const spec = await loadSlackSpec();
    const server = createServer();
    const fake = new FakeSlack(server, spec, options);
    server.on('request', (req, res) => {
      fake.handle(req, res).catch((error: unknown) => {
        fake.violations.push(`fake failed: ${String(error)}`);
        if (!res.headersSent) send(res, 500, { ok: false, error: 'fatal_error' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return fake;
  }

  /** Base URL for `SLACK_API_URL`. */
  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  /** Queues answers for the next calls of `method`. */
  script(method: string, ...answers: Scripted[]): void {
    this.scripts.set(method, [...(this.scripts.get(method) ?? []), ...answers]);
  }

  /**
   * Answers the next call of `method` whose form fields `when` accepts with `answer` (e.g. a 429 for
   * the first post in one channel); other calls are answered as usual.
   */
  scriptFor(method: string, when: (form: Record<string, string>) => boolean, answer: Scripted): void {
    this.conditional.push({ method, when, answer });
  }

  /**
   * Carries out the next call of `method` (a message is posted) but holds its answer back until
   * `release()` or until the client goes away (see {@link HeldAnswer}).
   */
  holdNext(method: string): HeldAnswer {
    const held = new HeldAnswer();
    this.script(method, { hold: held });
    return held;
  }

  /** Calls of one method, in order. */
  callsOf(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Everything the bot made visible anywhere: messages, edits, ephemerals, response_url posts, files. */
  everythingShown(): string {
    return JSON.stringify({
      calls: this.calls.filter((c) => c.method.startsWith('chat.')).map((c) => c.body),
      responses: this.responses,
      uploads: this.uploads,
    });
  }

  async close(): Promise<void> {
    await this.socket.close();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.url).pathname;
    const raw = await readBody(req);
    if (req.method === 'POST' && path.startsWith('/api/')) return this.api(path.slice(5), req, raw, res);
    if (req.method === 'POST' && path.startsWith('/response/')) {
      this.responses.push({ id: path.slice(10), body: JSON.parse(raw.toString()), at: wallClockMs() });
      const problems = checkMessage(this.responses.at(-1)?.body ?? {});
      if (problems.length) this.violations.push(...problems.map((p) => `response_url: ${p}`));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (req.method === 'POST' && path.startsWith('/upload/')) {
      const pending = this.pendingUploads.get(path.slice(8));
      if (!pending) return send(res, 404, { ok: false });
      const multipart = String(req.headers['content-type'] ?? '').startsWith('multipart/');
      pending.content = multipart ? await parseMultipart(req, raw) : raw;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`OK - ${pending.content.length}`);
      return;
    }
    if (req.method === 'GET' && path.startsWith('/files-pri/')) {
      const file = this.hosted.get(path.split('/')[2] ?? '');
      const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!this.tokens.has(bearer) || !file) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(file.content);
      return;
    }
    send(res, 404, { ok: false, error: 'unknown_route' });
  }

  private async api(method: string, req: IncomingMessage, raw: Buffer, res: ServerResponse): Promise<void> {
    const form = Object.fromEntries(new URLSearchParams(raw.toString()));
    const body: Record<string, unknown> = { ...form };
    for (const key of JSON_FIELDS) {
      if (typeof form[key] !== 'string') continue;
      try {
        body[key] = JSON.parse(form[key]);
      } catch {
        this.violations.push(`${method}: ${key} is not JSON`);
      }
    }
    const auth = String(req.headers.authorization ?? '');
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
    const call: RecordedCall = { method, form, body, token, status: 200, at: wallClockMs() };
    this.calls.push(call);
    const answer = (
      status: number,
      payload: Record<string, unknown>,
      headers: Record<string, string> = {},
    ) => {
      call.status = status;
      if (payload.ok === false) call.error = String(payload.error);
      send(res, status, payload, headers);
    };

    const contentType = String(req.headers['content-type'] ?? '').split(';')[0];
    if (contentType !== 'application/x-www-form-urlencoded' && raw.length > 0) {
      this.violations.push(`${method}: content type ${contentType}`);
    }
    const problems = [...this.spec.check(method, form), ...this.contentProblems(method, body)];
    if (problems.length) {
      this.violations.push(...problems);
      return answer(200, {
        ok: false,
        error: 'invalid_arguments',
        response_metadata: { messages: problems },
      });
    }
    if (method === 'oauth.v2.access') {
      if (form.client_id !== this.oauthApp.clientId || form.client_secret !== this.oauthApp.clientSecret) {
        return answer(200, { ok: false, error: 'invalid_client_id' });
      }
    } else if (
      method === 'apps.connections.open' ? token !== this.options.appToken : !this.tokens.has(token ?? '')
    ) {
      return answer(200, { ok: false, error: 'invalid_auth' });
    }

    const matching = this.conditional.findIndex((c) => c.method === method && c.when(form));
    let scripted =
      matching >= 0 ? this.conditional.splice(matching, 1)[0]?.answer : this.scripts.get(method)?.shift();
    if (scripted && 'delayMs' in scripted) {
      await new Promise((resolve) => setTimeout(resolve, (scripted as { delayMs: number }).delayMs));
      scripted = undefined;
    }
    if (scripted && 'status' in scripted && scripted.status === 429) {
      return answer(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(scripted.retryAfter) });
    }
    if (scripted && 'status' in scripted) return answer(scripted.status, { ok: false, error: 'fatal_error' });
    if (scripted && 'error' in scripted) return answer(200, { ok: false, error: scripted.error });
    const result = this.perform(method, body, this.tokens.get(token ?? '') ?? this.options.teamId);
    if (scripted && 'hold' in scripted && !(await scripted.hold.hold(res))) {
      call.status = -1;
      return;
    }
    return answer(200, result);
  }

  private contentProblems(method: string, body: Record<string, unknown>): string[] {
    if (method === 'views.open') return checkView((body.view ?? {}) as Record<string, unknown>);
    if (method === 'views.publish') {
      const problems = checkHomeView((body.view ?? {}) as Record<string, unknown>);
      if (!/^[UW][A-Z0-9]+$/.test(String(body.user_id ?? '')))
        problems.push('views.publish: invalid user_id');
      return problems.map((p) => (p.startsWith('views.publish') ? p : `views.publish: ${p}`));
    }
    if (method === 'chat.unfurl') return checkUnfurls(body);
    if (method.startsWith('chat.') && method !== 'chat.getPermalink') {
      const problems = checkMessage(body).map((p) => `${method}: ${p}`);
      if (!body.text && !body.blocks && !body.attachments) problems.push(`${method}: no_text`);
      return problems;
    }
    return [];
  }
}
