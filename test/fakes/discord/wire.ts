/** HTTP plumbing of the fake Discord: request bodies (JSON or multipart) and JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';

/** An uploaded file of a multipart request. */
export interface UploadedFile {
  name: string;
  data: Buffer;
}

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  /** Decoded path without the `/api/v10` prefix, e.g. `/webhooks/1/tok/messages/@original`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** JSON body, or the `payload_json` of a multipart body. */
  body: unknown;
  files: UploadedFile[];
  /** When it arrived (ms). */
  at: number;
  /** Status the fake answered. */
  status: number;
}

/** What a route answers. */
export interface RouteAnswer {
  status: number;
  body?: unknown;
}

/** The rate-limit headers of a normal answer (plenty left in the bucket). */
export function rateLimitHeaders(): Record<string, string> {
  return {
    'x-ratelimit-limit': '50',
    'x-ratelimit-remaining': '49',
    'x-ratelimit-reset': String(Date.now() / 1000 + 1),
    'x-ratelimit-reset-after': '1',
    'x-ratelimit-bucket': 'fakebucket',
  };
}

/** Writes a JSON answer (or an empty one for 204). */
export function send(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (status === 204 || body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Reads a JSON or multipart (`payload_json` + `files[n]`) body. */
export async function readBody(req: IncomingMessage): Promise<{ body: unknown; files: UploadedFile[] }> {
  const type = String(req.headers['content-type'] ?? '');
  if (type.startsWith('multipart/form-data')) {
    return new Promise((resolve, reject) => {
      const files: UploadedFile[] = [];
      let body: unknown;
      const parser = busboy({ headers: req.headers });
      parser.on('field', (name, value) => {
        if (name === 'payload_json') body = JSON.parse(value);
      });
      parser.on('file', (_name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => files.push({ name: info.filename ?? 'file', data: Buffer.concat(chunks) }));
      });
      parser.on('close', () => resolve({ body, files }));
      parser.on('error', reject);
      req.pipe(parser);
    });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return { body: undefined, files: [] };
  return { body: JSON.parse(text), files: [] };
}
