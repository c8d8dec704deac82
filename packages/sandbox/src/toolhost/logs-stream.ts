/**
 * Live NDJSON streams (jobs API `logs?follow=true`, logs API `logs_stream`): a `ReadableStream` that
 * first sends some lines, then every new line of a job as it is printed, until the client goes away
 * or the sandbox closes (every open stream ends at `close()`, through the sandbox timers).
 */
import { type SandboxContext, timersOf } from './context';
import type { LogStore, StoredLogLine } from './logs-store';

/** What a live stream sends. */
export interface LiveStreamOptions {
  ctx: SandboxContext;
  store: LogStore;
  tool: string;
  job: string;
  /** Lines to send first (already formatted, newline included). */
  initial: readonly string[];
  /** Formats one new line; undefined skips it. */
  format: (line: StoredLogLine) => string | undefined;
  /** The request's abort signal: the client went away. */
  signal?: AbortSignal;
}

const encoder = new TextEncoder();

/** A byte stream of `initial`, then of each line the job prints, until cancelled or closed. */
export function liveLogStream(options: LiveStreamOptions): ReadableStream<Uint8Array> {
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      let unsubscribe = () => {};
      let unregister = () => {};
      const end = () => {
        if (!open) return;
        open = false;
        unsubscribe();
        unregister();
        options.signal?.removeEventListener('abort', end);
        try {
          controller.close();
        } catch {
          // already closed or errored by the consumer
        }
      };
      cleanup = end;
      const send = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          end();
        }
      };
      for (const text of options.initial) send(text);
      unsubscribe = options.store.subscribe(options.tool, options.job, (line) => {
        const text = options.format(line);
        if (text !== undefined) send(text);
      });
      const unregisterClose = timersOf(options.ctx).onClose(end);
      const unregisterBreak = timersOf(options.ctx).onBreak(end);
      unregister = () => {
        unregisterClose();
        unregisterBreak();
      };
      if (options.signal?.aborted) end();
      else options.signal?.addEventListener('abort', end);
    },
    cancel() {
      cleanup();
    },
  });
}

/** Python's `json.dumps` escaping (`ensure_ascii`): non-ASCII as `\uXXXX`. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
