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
