import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { HttpClient } from '../../src/services/http';
import { readToolhostError } from '../../src/services/toolhost';

/** Answers one request; `attempt` counts the requests since the last test began, from 1. */
export type Handler = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

/** A local server answering with {@link ToolhostHttpRig.handler}, and tool-platform HTTP clients of it. */
export interface ToolhostHttpRig<Attempt> {
  /** `http://127.0.0.1:<port>` (set once the file's `beforeAll` hooks run). */
  readonly baseUrl: string;
  /** What was recorded of each request since the last test began. */
  readonly attempts: Attempt[];
  /** How the server answers (an empty 200 until a test sets it). */
  handler: Handler;
  /** A toolhost HTTP client of the server (2 retries 5 ms apart), closed after the test. */
  client(overrides?: Partial<ConstructorParameters<typeof HttpClient>[0]>): HttpClient;
}

/**
 * Starts the server before the file's tests (recording each request with `record`), closes the
 * clients and forgets the attempts after each test, and stops the server after the tests.
 */
export function useToolhostHttpRig<Attempt>(
  record: (req: IncomingMessage) => Attempt,
  timeoutMs: number,
): ToolhostHttpRig<Attempt> {
  let server: Server | undefined;
  let baseUrl = '';
  const attempts: Attempt[] = [];
  const clients: HttpClient[] = [];
  const rig: ToolhostHttpRig<Attempt> = {
    get baseUrl() {
      return baseUrl;
    },
    attempts,
    handler: (_req, res) => res.end(),
    client(overrides = {}) {
      const c = new HttpClient({
        service: 'toolhost',
        baseUrl,
        retries: 2,
        retryDelayMs: 5,
        timeoutMs,
        readError: readToolhostError,
        ...overrides,
      });
      clients.push(c);
      return c;
    },
  };
  beforeAll(async () => {
    const started = createServer((req, res) => {
      attempts.push(record(req));
      req.resume();
      req.on('end', () => rig.handler(req, res, attempts.length));
    });
    server = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  afterEach(async () => {
    attempts.length = 0;
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  return rig;
}
