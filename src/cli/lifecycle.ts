/**
 * Stopping a Deckhand process: the first SIGTERM or SIGINT asks for a graceful stop (in-flight
 * commands drained, workers closed, the embedded Redis stopped); the stop gets a few seconds, after
 * which the process exits anyway (a job still running is taken over by another worker once its lock
 * lapses, and the embedded Redis is stopped by the exit hook in `src/store/redis.ts`). A second
 * signal exits at once.
 */
import type { Logger } from 'pino';

/** How long a graceful stop may take before the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 8000;

/** The exit code of a process ended by `signal` (128 + its number, as shells report it). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** A pending stop request: resolves with the first SIGINT/SIGTERM. */
export interface StopRequest {
  signal: Promise<NodeJS.Signals>;
  /** Removes the signal handlers (when the process ends for another reason). */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM from now on. The first resolves {@link StopRequest.signal}; a
 * second one exits at once with that signal's code.
 */
export function listenForStop(
  say: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): StopRequest {
  let received: NodeJS.Signals | undefined;
  let resolveSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    resolveSignal = resolve;
  });
  const onSignal = (name: NodeJS.Signals) => {
    if (received) {
      say(`deckhand: ${name} again: exiting now.`);
      process.exit(signalExitCode(name));
    }
    received = name;
    say(
      `deckhand: ${name} received: stopping (finishing in-flight work, at most ${SHUTDOWN_GRACE_MS / 1000} s).`,
    );
    resolveSignal(name);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * Runs the stop `steps` in order, each failure logged and skipped; resolves true when all finished
 * within `graceMs`, false when the time ran out first (the caller exits anyway).
 */
export async function stopWithin(
  steps: readonly [name: string, step: () => Promise<unknown>][],
  logger: Logger,
  graceMs = SHUTDOWN_GRACE_MS,
): Promise<boolean> {
  const all = (async () => {
    for (const [name, step] of steps) {
      logger.debug({ step: name }, 'shutdown step');
      await Promise.resolve()
        .then(step)
        .catch((error: unknown) => logger.error({ err: error, step: name }, 'a shutdown step failed'));
    }
    return true;
  })();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
    timer.unref();
  });
  const finished = await Promise.race([all, late]);
  clearTimeout(timer);
  if (!finished) logger.warn({ graceMs }, 'shutdown took too long: exiting with work still running');
  return finished;
}
