/**
 * `GET /builds/{id}/logs`: `text/plain`, one `{"line":"[<container>] text"}` JSON object per line.
 * With `follow=true` the response stays open and new lines are sent as the build prints them, until
 * the build ends. An error after streaming began cannot change the status (already 200), so it is
 * sent as a last line `{"error":["…"]}` (the spec's in-stream internal error) — the emulator does
 * that when the build is deleted while followed, or when the sandbox closes.
 */
import type { BuildRecord, BuildsStore } from './builds-store';
import { isFinished } from './builds-store';
import type { SandboxContext } from './context';
import { timersOf } from './context';

const encoder = new TextEncoder();

function encodeLine(line: string): Uint8Array {
  return encoder.encode(`${JSON.stringify({ line })}\n`);
}

/** Streams the logs of `build` (and, when following, its future lines). */
export function streamBuildLogs(
  ctx: SandboxContext,
  store: BuildsStore,
  build: BuildRecord,
  follow: boolean,
): Response {
  const headers = {
    'content-type': 'text/plain; charset=UTF-8',
    // builds-api disables nginx buffering when following.
    ...(follow ? { 'x-accel-buffering': 'no' } : {}),
  };
  if (!follow || isFinished(build.status)) {
    return new Response(build.lines.map((line) => `${JSON.stringify({ line })}\n`).join(''), {
      status: 200,
      headers,
    });
  }
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let done = false;
      const end = (errorMessage?: string) => {
        if (done) return;
        done = true;
        cleanup();
        try {
          if (errorMessage)
            controller.enqueue(encoder.encode(`${JSON.stringify({ error: [errorMessage] })}\n`));
          controller.close();
        } catch {
          // the client went away
        }
      };
      for (const line of build.lines) controller.enqueue(encodeLine(line));
      const unsubscribe = store.subscribe(build.id, (event) => {
        if (event.type === 'line') {
          try {
            controller.enqueue(encodeLine(event.line));
          } catch {
            end();
          }
        } else if (event.type === 'deleted') {
          end(`Error getting the logs for ${build.id}: the build was deleted while its logs were streamed`);
        } else {
          end();
        }
      });
      const unregister = timersOf(ctx).onClose(() =>
        end(`Error getting the logs for ${build.id}: the service is shutting down`),
      );
      cleanup = () => {
        unsubscribe();
        unregister();
      };
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, { status: 200, headers });
}
