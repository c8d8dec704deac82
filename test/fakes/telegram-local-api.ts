/**
 * A "local Bot API server" in front of the Telegram fake, for big-file tests and benchmarks. The cloud
 * Bot API (and the fake) refuse downloads over 20 MB; a local server does not. This proxy answers
 * `getFile` for one big document and serves its bytes from the media sandbox's deterministic
 * generator, so the file exists nowhere but where the bot uploads it; every other call is forwarded
 * to the fake unchanged.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sampleChunks } from '@deckhand/sandbox/media';
import { request } from 'undici';
import type { FakeTelegram } from './telegram';

/** One download of the big file. */
export interface BigDownload {
  startedAt: number;
  /** Bytes sent so far. */
  sent: number;
  /** sha256 (hex) of what was sent, once the download is complete. */
  sha256?: string;
}

/** The running proxy. */
export interface LocalBotApi {
  /** Its base URL: use it as `TELEGRAM_API_ROOT`. */
  url: string;
  /** The big file's path under `/file/bot<token>/`. */
  bigPath: string;
  /** Answer `getFile` for this file id with the big file (set once the document was sent). */
  bigFileId: string;
  /** Every download of the big file, in order. */
  downloads: BigDownload[];
  close(): Promise<void>;
}

/** Options of {@link startLocalBotApi}. */
export interface LocalBotApiOptions {
  /** Size of the big file in bytes. */
  size: number;
  /** Seed of the generator (the same seed gives the same bytes). */
  seed: string;
  bigPath?: string;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Starts the proxy on 127.0.0.1 in front of `fake`. */
export async function startLocalBotApi(
  fake: FakeTelegram,
  options: LocalBotApiOptions,
): Promise<LocalBotApi> {
  const api: LocalBotApi = {
    url: '',
    bigPath: options.bigPath ?? 'documents/big-upload.bin',
    bigFileId: '',
    downloads: [],
    close: async () => {},
  };

  const serveBig = (res: ServerResponse) => {
    const download: BigDownload = { startedAt: Date.now(), sent: 0 };
    api.downloads.push(download);
    const hash = createHash('sha256');
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(options.size) });
    const chunks = sampleChunks(options.size, options.seed);
    const pump = () => {
      for (;;) {
        const next = chunks.next();
        if (next.done) {
          download.sha256 = hash.digest('hex');
          res.end();
          return;
        }
        hash.update(next.value);
        download.sent += next.value.length;
        if (!res.write(next.value)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    if (req.method === 'GET' && path === `/file/bot${fake.token}/${api.bigPath}`) return serveBig(res);
    const body = await readBody(req);
    if (api.bigFileId && path === `/bot${fake.token}/getFile` && body.toString().includes(api.bigFileId)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const result = {
        file_id: api.bigFileId,
        file_unique_id: 'AgADbig',
        file_size: options.size,
        file_path: api.bigPath,
      };
      res.end(JSON.stringify({ ok: true, result }));
      return;
    }
    const upstream = await request(`${fake.apiRoot}${path}`, {
      method: req.method as 'GET' | 'POST',
      headers: { ...(req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {}) },
      ...(body.length ? { body } : {}),
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    res.writeHead(upstream.statusCode, {
      'content-type': String(upstream.headers['content-type'] ?? 'application/json'),
    });
    res.end(Buffer.from(await upstream.body.arrayBuffer()));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return api;
}
