/**
 * Whether the Bot API answers, seen from every raw request. Installed inside grammY's auto-retry
 * (`bot.ts`), so it sees each attempt: auto-retry backs off and retries network failures and 5xx
 * answers on its own (3 s, doubling, up to an hour — grammY's mechanism, not ours); this only logs
 * that the API is unreachable and when it is back, and tells `/readyz`.
 */
import { HttpError, type Transformer } from 'grammy';
import type { Logger } from 'pino';

/** The underlying network error's code (`ECONNREFUSED`), never its message (which may hold the URL). */
function causeOf(error: HttpError): string {
  const inner = error.error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = inner?.cause?.code ?? inner?.code;
  return typeof code === 'string' ? code : 'network error';
}

/** See the module comment. */
export class ApiReachability {
  private failingSince: number | undefined;

  constructor(private readonly logger: Logger) {}

  /** False from a failed attempt until the next one that is answered. */
  get reachable(): boolean {
    return this.failingSince === undefined;
  }

  /** The transformer to install before auto-retry. */
  readonly transformer: Transformer = async (prev, method, payload, signal) => {
    try {
      const result = await prev(method, payload, signal);
      if (!result.ok && result.error_code >= 500) this.failed(method, `HTTP ${result.error_code}`);
      else this.answered();
      return result;
    } catch (error) {
      if (error instanceof HttpError && !signal?.aborted) this.failed(method, causeOf(error));
      throw error;
    }
  };

  private failed(method: string, cause: string): void {
    const first = this.failingSince === undefined;
    this.failingSince ??= Date.now();
    this.logger.warn(
      { method, cause, downForMs: Date.now() - this.failingSince },
      first
        ? 'telegram: the Bot API is unreachable; retrying with back-off'
        : 'telegram: the Bot API is still unreachable; retrying with back-off',
    );
  }

  private answered(): void {
    if (this.failingSince === undefined) return;
    this.logger.info({ downForMs: Date.now() - this.failingSince }, 'telegram: the Bot API answers again');
    this.failingSince = undefined;
  }
}
