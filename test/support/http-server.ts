import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** Resolves with the error `promise` rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

/** Writes a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A local HTTP server that answers as the test says and counts the requests it got. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Requests received since the last {@link ScriptedServer.reset}. */
  readonly requests: number;
  /** How the next requests are answered (`attempt` counts from 1 since the last reset). */
  answer: (res: ServerResponse, attempt: number) => void;
  reset(): void;
  close(): Promise<void>;
}

/** Starts a {@link ScriptedServer} (answers an empty 200 until told otherwise). */
export async function startScriptedServer(): Promise<ScriptedServer> {
  let requests = 0;
  const scripted = {
    url: '',
    get requests() {
      return requests;
    },
    answer: (res: ServerResponse, _attempt: number) => res.end(),
    reset() {
      requests = 0;
    },
    close: async () => {},
  };
  const server = createServer((req, res) => {
    requests += 1;
    const attempt = requests;
    req.resume();
    req.on('end', () => scripted.answer(res, attempt));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  scripted.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  scripted.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return scripted;
}

/**
 * A {@link ScriptedServer} for one test file: started before its tests, reset after each (and the
 * clients made through `track` closed), closed after all. Read `.server` inside tests and hooks.
 */
export function useScriptedServer<C extends { close(): Promise<unknown> }>() {
  const used = { server: undefined as unknown as ScriptedServer, clients: [] as C[] };
  beforeAll(async () => {
    used.server = await startScriptedServer();
  });
  afterEach(async () => {
    used.server.reset();
    await Promise.all(used.clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await used.server.close();
  });
  return {
    get server(): ScriptedServer {
      return used.server;
    },
    /** Closes `client` after the test. */
    track(client: C): C {
      used.clients.push(client);
      return client;
    },
  };
}
