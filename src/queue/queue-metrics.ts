import type { Worker } from 'bullmq';
import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from '../metrics';
import type { Queues } from './queues';

const jobLatency = new Histogram({
  name: 'deckhand_queue_job_wait_seconds',
  help: 'Time from when a queued job was due until a worker started it.',
  labelNames: ['queue'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 15, 60],
  registers: [metricsRegistry],
});

const jobFailures = new Counter({
  name: 'deckhand_queue_jobs_failed_total',
  help: 'Queued jobs that failed (an attempt that will be retried counts too).',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});

/** Exposes the depth of every queue by state; read from Redis when `/metrics` is scraped. */
export function registerQueueDepth(queues: Queues): void {
  metricsRegistry.removeSingleMetric('deckhand_queue_jobs');
  new Gauge({
    name: 'deckhand_queue_jobs',
    help: 'Jobs in each queue, by state.',
    labelNames: ['queue', 'state'] as const,
    registers: [metricsRegistry],
    async collect() {
      for (const [name, queue] of Object.entries(queues)) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized');
        for (const [state, count] of Object.entries(counts)) this.set({ queue: name, state }, count);
      }
    },
  });
}

/** Records wait time and failures of a worker's jobs. */
export function instrumentWorker(worker: Worker, queue: string): void {
  worker.on('active', (job) => {
    const due = job.timestamp + (job.delay ?? 0);
    jobLatency.observe({ queue }, Math.max(0, Date.now() - due) / 1000);
  });
  worker.on('failed', () => jobFailures.inc({ queue }));
}
