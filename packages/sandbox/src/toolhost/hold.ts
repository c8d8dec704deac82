/**
 * Held answers, for crash tests: the sandbox carries a request out (the deployment exists, the job
 * restarted) and then keeps its HTTP answer back until the test releases it — the window in which a
 * client that dies never learns that the platform accepted its request. Every request the gateway
 * carried out is also counted by method and path, so a test can tell how often an effect happened.
 */
import type { MiddlewareHandler } from 'hono';
import type { ToolhostEnv } from './auth';

/** One held answer. */
export interface HeldRequest {
  /** Resolves once the request was carried out and its answer is being held. */
  readonly arrived: Promise<void>;
  /** Lets the answer go (to the client, if it is still there). */
  release(): void;
}

interface Hold {
  method: string;
  path: RegExp;
  arrive: () => void;
  released: Promise<void>;
  held: HeldRequest;
}

/** The holds armed and the requests carried out. */
export class AnswerHolds {
  private readonly holds: Hold[] = [];
  private readonly carried: { method: string; path: string }[] = [];

  /** Holds the answer of the next request of `method` whose path matches `path`. */
  holdNext(method: string, path: RegExp): HeldRequest {
    let arrive = () => {};
    let release = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = { arrived, release };
    this.holds.push({ method, path, arrive, released, held });
    return held;
  }

  /** How many requests of `method` whose path matches `path` were carried out. */
  count(method: string, path: RegExp): number {
    return this.carried.filter((r) => r.method === method && path.test(r.path)).length;
  }

  /** The middleware: runs the request, records it, then holds its answer when a hold matches. */
  middleware(): MiddlewareHandler<ToolhostEnv> {
    return async (c, next) => {
      await next();
      const method = c.req.method;
      const path = c.req.path;
      this.carried.push({ method, path });
      const index = this.holds.findIndex((h) => h.method === method && h.path.test(path));
      const hold = index >= 0 ? this.holds.splice(index, 1)[0] : undefined;
      if (!hold) return;
      hold.arrive();
      await hold.released;
    };
  }
}
