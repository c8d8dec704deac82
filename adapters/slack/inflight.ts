import type { Logger } from 'pino';

/**
 * Work started after an interaction was acknowledged. Failures are logged (never shown as stack
 * traces); `drain` lets shutdown wait for what is still running.
 */
export class InFlight {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /**
   * Starts `task` in the background, after the current turn of the event loop: the requests already
   * read in this turn are acknowledged first (a burst of slash commands is answered before any of
   * their Redis work starts, so an ack never waits behind another command's claim and enqueue).
   */
  run(what: string, task: () => Promise<void>): void {
    const promise = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => this.logger.error({ err: error, what }, 'Slack interaction failed'))
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  /** Number of tasks still running. */
  get size(): number {
    return this.running.size;
  }

  /** Waits for running tasks, at most `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.allSettled([...this.running]), deadline]);
  }
}
