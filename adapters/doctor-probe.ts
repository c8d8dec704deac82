/**
 * Harmless requests for `deckhand doctor`: a bounded wait, the answer's status and JSON, and failures
 * described without the URL's query or credentials (a token may sit in a path).
 */
import { Agent, type Dispatcher, fetch } from 'undici';

/** What a probe got back. */
export type ProbeResult =
  | { kind: 'answer'; status: number; json: unknown }
  | { kind: 'unreachable'; reason: string };

/** Options of {@link probe}. */
export interface ProbeOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** TLS settings (a private CA, a client certificate). */
  tls?: { ca?: string; cert?: string; key?: string };
}

/** Requests `url` once; never throws. */
export async function probe(url: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const dispatcher: Dispatcher | undefined = options.tls ? new Agent({ connect: options.tls }) : undefined;
  try {
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: options.headers ?? {},
      signal: AbortSignal.timeout(options.timeoutMs ?? 8000),
      ...(dispatcher ? { dispatcher } : {}),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { kind: 'answer', status: response.status, json };
  } catch (error) {
    return { kind: 'unreachable', reason: describeFailure(error) };
  } finally {
    await dispatcher?.close();
  }
}

/** The network error's own code or sentence (e.g. `ECONNREFUSED`), never the URL. */
function describeFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return 'no answer within the time limit';
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : 'request failed');
}

/** `https://host:port/path` of a URL, without query, fragment or user info. */
export function shown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
