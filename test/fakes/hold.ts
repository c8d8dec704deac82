/**
 * A held answer: the fake carries out a request (the message is stored, as the real platform would
 * have done) but keeps the HTTP answer back until the test releases it or the client goes away. This
 * is the window in which a crash makes a worker lose the platform's answer to a post that happened.
 */
import type { ServerResponse } from 'node:http';

/** One held answer. */
export class HeldAnswer {
  /** Resolves once the held request has been carried out (its message stored). */
  readonly arrived: Promise<void>;
  /** True once the client closed the connection while the answer was held (it never got it). */
  dropped = false;
  private markArrived: () => void = () => {};
  private markReleased: () => void = () => {};
  private readonly released: Promise<void>;

  constructor() {
    this.arrived = new Promise((resolve) => {
      this.markArrived = resolve;
    });
    this.released = new Promise((resolve) => {
      this.markReleased = resolve;
    });
  }

  /** Lets the answer go (if the client is still there). */
  release(): void {
    this.markReleased();
  }

  /**
   * Called by the fake after carrying out the request: waits for {@link release} or for the client to
   * close the connection; resolves true when the answer can still be sent.
   */
  async hold(res: ServerResponse): Promise<boolean> {
    const closed = new Promise<void>((resolve) => {
      if (res.destroyed || res.socket?.destroyed) resolve();
      res.once('close', () => resolve());
    });
    this.markArrived();
    await Promise.race([this.released, closed]);
    if (res.destroyed || res.writableEnded || res.socket?.destroyed) {
      this.dropped = true;
      return false;
    }
    return true;
  }
}
