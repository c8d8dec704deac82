/**
 * Bulkheads for upstream calls: each process holds a compartment per service (per service address)
 * and one per client (the tool platform has a client per tool), each allowing a few requests in
 * flight. A silent service fills its own compartments only: a command of another service, or of
 * another tool, still finds room. A request that finds its compartment full waits its turn — within
 * its command's deadline. While the compartment is stuck (no place freed for a second: its service
 * holds every place without answering), the line is short: past it a command is refused at once, so
 * commands waiting on a silent service never hold the worker's job slots (the command worker runs
 * many more jobs at once than the compartments of all services together hold). While places are
 * being freed, a burst of any size waits its turn: a service that answers is never refused for being
 * asked a lot at once.
 *
 * A service whose last requests in a row all went unanswered is known down: for a while its requests
 * are refused at once with the outage message instead of each waiting out its timeout; then one is
 * let through to see whether it is back.
 */
import { UnreachableError } from '../core/errors';
import { serviceNameFirst, serviceNameIn } from './service-names';

/** Requests in flight per service (per process). */
export const SERVICE_IN_FLIGHT = 16;
/** Requests in flight per client (per tool, for the tool platform). */
export const CLIENT_IN_FLIGHT = 8;
/** Requests that may wait for a place, per place of a stuck compartment, while a command waits. */
const WAITING_PER_PLACE = 2;
/** A compartment that freed no place for this long is stuck: its line is bounded. */
export const STUCK_AFTER_MS = 1000;
/** Unanswered requests in a row after which a service is known down. */
const DOWN_AFTER_FAILURES = 3;
/** How long a service known down is not sent requests. */
export const DOWN_FOR_MS = 30_000;

/** A semaphore with a bounded line. */
export class Compartment {
  private inFlight = 0;
  private readonly line: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** When a place was last freed (never: the compartment counts as stuck until one is). */
  private lastFreed = Number.NEGATIVE_INFINITY;

  constructor(
    readonly service: string,
    readonly size: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Takes a place: at once when one is free; else waits in line (unless `bounded`, the compartment
   * is stuck and the line is full: refused at once) until one frees or `signal` aborts. Resolves
   * with the release function.
   */
  async take(signal: AbortSignal | undefined, bounded: boolean): Promise<() => void> {
    if (this.inFlight < this.size) {
      this.inFlight += 1;
      return this.releaser();
    }
    if (bounded && this.line.length >= this.size * WAITING_PER_PLACE && this.stuck()) throw this.full();
    if (signal?.aborted) throw signal.reason;
    await new Promise<void>((resolve, reject) => {
      const entry = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const at = this.line.indexOf(entry);
        if (at >= 0) this.line.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(entry);
    });
    // The place was handed over by the request that left it (see releaser): already counted.
    return this.releaser();
  }

  /** Leaves a place: handed straight to the first in line, else freed. */
  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.lastFreed = this.clock();
      const next = this.line.shift();
      if (next) next.resolve();
      else this.inFlight -= 1;
    };
  }

  /** No place was freed for {@link STUCK_AFTER_MS}: the service holds them without answering. */
  private stuck(): boolean {
    return this.clock() - this.lastFreed >= STUCK_AFTER_MS;
  }

  private full(): UnreachableError {
    const { size, service } = this;
    const waiting = this.line.length;
    return new UnreachableError(service, (say) => ({
      message: say.t('service-slow', serviceNameFirst(say, service), size, waiting),
    }));
  }
}

/** Whether a service answers: unanswered requests in a row, and until when it is known down. */
export class ServiceCircuit {
  private failures = 0;
  private downUntil = 0;

  constructor(readonly service: string) {}

  /** Throws the outage message while the service is known down. */
  check(now = Date.now()): void {
    if (now >= this.downUntil) return;
    const seconds = Math.ceil((this.downUntil - now) / 1000);
    const { failures, service } = this;
    throw new UnreachableError(service, (say) => ({
      message: say.t(
        'service-down',
        serviceNameFirst(say, service),
        failures,
        seconds,
        serviceNameIn(say, service),
      ),
    }));
  }

  /** A request got an answer (any status): the service is up. */
  answered(): void {
    this.failures = 0;
    this.downUntil = 0;
  }

  /** A request went unanswered (timeout, connection refused or reset). */
  unanswered(now = Date.now()): void {
    this.failures += 1;
    if (this.failures >= DOWN_AFTER_FAILURES) this.downUntil = now + DOWN_FOR_MS;
  }
}

/** The compartments and circuits of this process, by service and address. */
const services = new Map<string, { compartment: Compartment; circuit: ServiceCircuit }>();

/** The shared compartment and circuit of a service at an address (`toolhost`, `https://…`). */
export function serviceBulkhead(
  service: string,
  baseUrl: string,
): { compartment: Compartment; circuit: ServiceCircuit } {
  const key = `${service}|${new URL(baseUrl).origin}`;
  let found = services.get(key);
  if (!found) {
    found = {
      compartment: new Compartment(service, SERVICE_IN_FLIGHT),
      circuit: new ServiceCircuit(service),
    };
    services.set(key, found);
  }
  return found;
}
