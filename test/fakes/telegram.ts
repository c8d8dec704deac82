/**
 * A local Telegram Bot API for tests: real HTTP on 127.0.0.1 that grammY talks to unchanged
 * (`apiRoot`). It has long polling with Telegram's semantics (offset confirms, `timeout` parks the
 * request until an update arrives, `limit`, a second poller gets 409), messages and their edits,
 * inline keyboards and callback queries, documents (multipart uploads, `getFile`, `/file/bot…`
 * downloads), commands, webhooks, and injected 429s with `retry_after`.
 *
 * Every request is validated against `specs/platforms/telegram-bot-api-openapi.json` and the Bot
 * API's documented limits (telegram-rules.ts); a violation is answered with the 400 Telegram would
 * give and recorded, and {@link FakeTelegram.assertClean} fails the test. Responses are validated
 * too, so the fake cannot drift from the spec either.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Chat, Update, User, UserFromGetMe } from 'grammy/types';
import { HeldAnswer } from './hold';
import { readBody, sendJson } from './telegram-http';
import { METHODS } from './telegram-methods';
import { LongPoll } from './telegram-polling';
import { BotApiError } from './telegram-rules';
import {
  decodeParams,
  RESPONSE_CHECKED,
  validateRequest,
  validateResponse,
  warmUpValidators,
} from './telegram-spec';
import { FakeTelegramState } from './telegram-state';
import { UserActions } from './telegram-users';

/** One request the bot made, as the fake answered it. */
export interface RecordedCall {
  method: string;
  at: number;
  params: Record<string, unknown>;
  /** Names of uploaded file parts. */
  files: string[];
  status: number;
  description?: string;
}

interface Fault {
  times: number;
  code: number;
  description: string;
  retryAfter?: number;
  /** Other ResponseParameters of the answer (`migrate_to_chat_id`). */
  parameters?: { migrate_to_chat_id?: number };
}

/** Options of {@link startFakeTelegram}. */
export interface FakeTelegramOptions {
  botId?: number;
  username?: string;
  /**
   * Also validate the fake's answers against the spec (keeps the fake honest; compiling the response
   * schemas costs seconds, so the fake's own test turns it on). See `RESPONSE_CHECKED`.
   */
  checkResponses?: boolean;
}

/** The fake Bot API; see the module comment. */
export class FakeTelegram extends UserActions {
  readonly calls: RecordedCall[] = [];
  /** Requests the real Bot API would refuse (spec or documented limits), and fake bugs. */
  readonly violations: string[] = [];
  apiRoot = '';
  private readonly poll = new LongPoll((res, call, outcome) => this.answer(res, call, outcome));
  private readonly faults = new Map<string, Fault[]>();
  private readonly holds = new Map<string, HeldAnswer[]>();
  private server: Server | undefined;

  constructor(
    readonly token: string,
    state: FakeTelegramState,
    private readonly checkResponses = false,
  ) {
    super(state);
    state.pendingUpdates = () => this.poll.pending;
    state.dropPendingUpdates = () => this.poll.drop();
  }

  /**
   * Records a failed webhook delivery as Telegram reports it in getWebhookInfo (`last_error_date`,
   * `last_error_message`, e.g. "Wrong response from the webhook: 502 Bad Gateway"). The fake itself
   * posts to no webhook, so a test says what went wrong.
   */
  webhookDeliveryFailed(message: string, at = Math.floor(Date.now() / 1000)): void {
    if (!this.state.webhook) throw new Error('fake: no webhook is set');
    this.state.webhook.lastErrorDate = at;
    this.state.webhook.lastErrorMessage = message;
  }

  protected override enqueue(update: Update): void {
    this.push(update);
  }

  /** Listens on 127.0.0.1 on a free port. */
  async listen(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.apiRoot = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Queues updates for the bot (several at once arrive in one `getUpdates` answer). */
  push(...updates: Update[]): void {
    this.poll.push(...updates);
  }

  /** The next `times` calls of `method` get 429 Too Many Requests with `retry_after`. */
  rateLimit(method: string, options: { times?: number; retryAfter: number }): void {
    this.fault(method, {
      times: options.times ?? 1,
      code: 429,
      description: `Too Many Requests: retry after ${options.retryAfter}`,
      retryAfter: options.retryAfter,
    });
  }

  /** The next `times` calls of `method` fail with this status and description. */
  fault(method: string, fault: Fault): void {
    const list = this.faults.get(method) ?? [];
    list.push(fault);
    this.faults.set(method, list);
  }

  /**
   * Carries out the next call of `method` (the message is sent) but holds its answer back until
   * `release()` or until the client goes away (see {@link HeldAnswer}).
   */
  holdNext(method: string): HeldAnswer {
    const held = new HeldAnswer();
    this.holds.set(method, [...(this.holds.get(method) ?? []), held]);
    return held;
  }

  /** Calls of one method (all calls without an argument). */
  callsTo(method?: string): RecordedCall[] {
    return method ? this.calls.filter((c) => c.method === method) : this.calls;
  }

  /** Throws when the bot sent anything the real Bot API would refuse. */
  assertClean(): void {
    if (this.violations.length > 0) {
      throw new Error(`Bot API violations:\n- ${this.violations.join('\n- ')}`);
    }
  }

  /** Stops the server, dropping kept-alive connections. */
  async close(): Promise<void> {
    this.poll.close();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file && req.method === 'GET') return this.download(file[1] as string, file[2] as string, res);
    const api = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!api || (req.method !== 'POST' && req.method !== 'GET')) {
      sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      return;
    }
    const method = api[2] as string;
    const body = await readBody(req);
    const params = await decodeParams({ method, params: body.params, form: body.form });
    const call: RecordedCall = { method, at: Date.now(), params, files: Object.keys(body.files), status: 0 };
    this.calls.push(call);
    if (api[1] !== this.token) return this.answer(res, call, new BotApiError(401, 'Unauthorized'));
    if (!(method in METHODS) && method !== 'getUpdates') {
      return this.answer(res, call, new BotApiError(404, 'Not Found: method not found'));
    }
    const problems = body.error ? [`${method}: ${body.error}`] : await validateRequest(method, params);
    if (problems.length > 0) {
      this.violations.push(...problems);
      return this.answer(res, call, new BotApiError(400, `Bad Request: ${problems[0]}`));
    }
    const fault = this.takeFault(method);
    if (fault) {
      const parameters =
        fault.retryAfter !== undefined
          ? { ...fault.parameters, retry_after: fault.retryAfter }
          : fault.parameters;
      return this.answer(res, call, new BotApiError(fault.code, fault.description, parameters));
    }
    if (method === 'getUpdates') return this.getUpdates(params, res, call);
    try {
      const result = METHODS[method]?.(this.state, params, body.files);
      const held = this.holds.get(method)?.shift();
      if (held && !(await held.hold(res))) {
        call.status = -1;
        return;
      }
      return this.answer(res, call, { result });
    } catch (error) {
      if (!(error instanceof BotApiError)) throw error;
      if (error.violation) this.violations.push(`${method}: ${error.description}`);
      return this.answer(res, call, error);
    }
  }

  private takeFault(method: string): Fault | undefined {
    const list = this.faults.get(method);
    const fault = list?.[0];
    if (!list || !fault) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) list.shift();
    return fault;
  }

  /** Sends the answer of a call (a result or a Bot API error) and records it. */
  private async answer(
    res: ServerResponse,
    call: RecordedCall,
    outcome: { result: unknown } | BotApiError,
  ): Promise<void> {
    const status = outcome instanceof BotApiError ? outcome.code : 200;
    const body =
      outcome instanceof BotApiError
        ? {
            ok: false,
            error_code: outcome.code,
            description: outcome.description,
            ...(outcome.parameters ? { parameters: outcome.parameters } : {}),
          }
        : { ok: true, result: outcome.result };
    call.status = status;
    if (outcome instanceof BotApiError) call.description = outcome.description;
    if (this.checkResponses && RESPONSE_CHECKED.has(call.method) && status !== 401 && status !== 404) {
      this.violations.push(...(await validateResponse(call.method, status, body)));
    }
    sendJson(res, status, body);
  }

  private getUpdates(params: Record<string, unknown>, res: ServerResponse, call: RecordedCall): void {
    if (this.state.webhook) {
      void this.answer(
        res,
        call,
        new BotApiError(
          409,
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        ),
      );
      return;
    }
    this.poll.request(params, res, call);
  }

  private download(token: string, path: string, res: ServerResponse): void {
    if (token !== this.token) {
      sendJson(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      return;
    }
    const file = [...this.state.files.values()].find((f) => f.path === path);
    if (!file?.content) {
      sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      return;
    }
    res.writeHead(200, {
      'content-type': file.mimeType ?? 'application/octet-stream',
      'content-length': file.content.length,
    });
    res.end(file.content);
  }
}

/** Starts a fake Bot API for one bot; `close()` it in `afterAll`. */
export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const botId = options.botId ?? 7000001;
  const bot: UserFromGetMe = {
    id: botId,
    is_bot: true,
    first_name: 'Deckhand',
    username: options.username ?? 'deckhand_bot',
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  } as UserFromGetMe;
  const fake = new FakeTelegram(
    `${botId}:AAHfakeTokenForDeckhandTests_0123`,
    new FakeTelegramState(bot),
    options.checkResponses ?? false,
  );
  await Promise.all([fake.listen(), warmUpValidators(options.checkResponses ?? false)]);
  return fake;
}

export type { FakeMessage } from './telegram-state';
export type { Chat, Update, User };
