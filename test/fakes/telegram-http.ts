/**
 * Reading Bot API request bodies the way the Bot API accepts them: JSON, URL-encoded forms and
 * multipart/form-data (with busboy: grammY writes unquoted `filename=` values that Node's own
 * `Request.formData()` rejects).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import type { UploadedFile } from './telegram-methods';

/** A parsed request body. */
export interface ParsedBody {
  params: Record<string, unknown>;
  files: Record<string, UploadedFile>;
  /** Form or multipart: the values are strings still to decode. */
  form: boolean;
  /** Set when the body could not be read as the content type says. */
  error?: string;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function readMultipart(req: IncomingMessage): Promise<ParsedBody> {
  return new Promise((resolve) => {
    const params: Record<string, unknown> = {};
    const files: Record<string, UploadedFile> = {};
    const pending: Promise<void>[] = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers });
    } catch (error) {
      resolve({ params, files, form: true, error: `multipart: ${(error as Error).message}` });
      return;
    }
    parser.on('field', (name, value) => {
      params[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      pending.push(
        new Promise((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files[name] = {
              filename: info.filename ?? name,
              mimeType: info.mimeType,
              data: Buffer.concat(chunks),
            };
            done();
          });
        }),
      );
    });
    parser.on('error', (error) =>
      resolve({ params, files, form: true, error: `multipart: ${String(error)}` }),
    );
    parser.on('close', () => void Promise.all(pending).then(() => resolve({ params, files, form: true })));
    req.pipe(parser);
  });
}

/** Reads a request body by its content type. */
export async function readBody(req: IncomingMessage): Promise<ParsedBody> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type === 'multipart/form-data') return readMultipart(req);
  const raw = (await readAll(req)).toString('utf8');
  if (raw === '') return { params: {}, files: {}, form: false };
  if (type === 'application/x-www-form-urlencoded') {
    return { params: Object.fromEntries(new URLSearchParams(raw)), files: {}, form: true };
  }
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { params: {}, files: {}, form: false, error: 'the JSON body is not an object' };
    }
    return { params: parsed as Record<string, unknown>, files: {}, form: false };
  } catch {
    return { params: {}, files: {}, form: false, error: 'the body is not valid JSON' };
  }
}

/** Sends a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
