import type { Logger } from 'pino';
import { currentInvocationId, newInvocationId, runWithInvocation } from '../log';
import type { CardSurface } from './card-surface';
import type { Invocation } from './command';
import { type CommandInput, type CommandQueue, queueableInvocation } from './command-job';
import type { CommandRunner } from './command-runner';
import type { Platform } from './conversation';
import { StoreUnavailableError } from './errors';

/** One acknowledged delivery, as an adapter hands it on. */
export interface Handoff {
  /** The delivery key the adapter claimed (`<platform>:trigger:…`). */
  key: string;
  platform: Platform;
  input: CommandInput;
  invocation: Invocation;
  /** The platform's reply place as plain data, from which a worker rebuilds the surface. */
  place: Record<string, unknown>;
}

/**
 * Where an adapter sends an acknowledged command: in a `web` process onto the queue (a worker runs
 * it), in an `all` process straight to the command runner. A command whose files can only be read here
 * (no locator) runs here in either case.
 */
export class CommandHandoff {
  constructor(
    private readonly deps: {
      runner: CommandRunner<unknown>;
      /** Present in `web` processes: commands go to the workers. */
      queue?: CommandQueue | undefined;
      logger: Logger;
    },
  ) {}

  /** True when commands are handed to the workers. */
  get queued(): boolean {
    return this.deps.queue !== undefined;
  }

  /**
   * Hands a command on; `surfaceHere` builds the reply surface when it runs (or fails) in this process.
   * The invocation id starts here, so the web process's lines and the worker's (through the job's
   * data) carry the same one.
   *
   * A queued command gets its id in its job's data, not through the log scope: on Node 20 the first
   * `AsyncLocalStorage.run` turns on promise hooks for the whole process, which cost every promise of
   * every later request (about a fifth of Bolt's own request handling), and a web process that only
   * queues needs no scope. Each command of a burst keeps its own id (the burst is flushed together).
   */
  submit(handoff: Handoff, surfaceHere: () => CardSurface): Promise<void> {
    const invocationId = currentInvocationId() ?? newInvocationId();
    const invocation: Invocation = { ...handoff.invocation, key: handoff.key };
    const queued = this.deps.queue ? queueableInvocation(invocation) : undefined;
    if (!this.deps.queue || !queued) {
      return runWithInvocation(invocationId, () =>
        this.deps.runner.run(handoff.input, invocation, surfaceHere()),
      );
    }
    const job = {
      key: handoff.key,
      platform: handoff.platform,
      input: handoff.input,
      invocation: queued,
      place: handoff.place,
      invocationId,
    };
    return this.deps.queue.enqueue(job).catch((error: unknown) =>
      runWithInvocation(invocationId, async () => {
        this.deps.logger.warn({ err: error, key: handoff.key }, 'could not queue a command');
        const card = this.deps.runner.errorCard(
          'queue',
          new StoreUnavailableError({ cause: error }),
          invocation,
        );
        await surfaceHere().reply(card);
      }),
    );
  }
}
