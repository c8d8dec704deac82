import { join } from 'node:path';

/** What every benchmark gets from the runner. */
export interface BenchContext {
  /** `--quick`: small sizes, only checks that the benchmark runs and produces its figures. */
  quick: boolean;
  /** The Redis every process of the run shares (each benchmark uses its own key prefix). */
  redisUrl: string;
  /** A scratch directory for this benchmark (certificates, record files, logs). */
  dir: string;
  /** Where CPU profiles go when `--profile` was given. */
  profileDir?: string;
  /** Progress output (stderr). */
  log(message: string): void;
}

/** A benchmark: an id, a title, and a function that measures and returns figures. */
export interface Benchmark {
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<import('./results').BenchResult>;
}

/**
 * The environment of a Deckhand process a benchmark starts, besides its platforms: the run's Redis
 * under `prefix`, the HTTP server on `127.0.0.1:port`, the scratch directory as its data directory,
 * and warnings and worse logged to `deckhand.log` there.
 */
export function deckhandEnv(ctx: BenchContext, prefix: string, port: number): Record<string, string> {
  return {
    REDIS_URL: ctx.redisUrl,
    REDIS_KEY_PREFIX: prefix,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: ctx.dir,
    LOG_LEVEL: 'warn',
    LOG_FILE: join(ctx.dir, 'deckhand.log'),
  };
}
