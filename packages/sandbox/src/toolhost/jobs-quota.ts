/**
 * `GET /jobs/v1/tool/{t}/quotas`: the tool namespace's ResourceQuota and LimitRange, in the API's
 * three categories (J `tjf/runtimes/k8s/runtime.py get_quotas`). "Used" figures are computed from
 * the emulated pods; per-job limits have `used: null`, as the real API sends them.
 */
import { DEFAULT_CPU, DEFAULT_MEMORY, type JobRecord } from './jobs-model';
import { CONTAINER_LIMITS, formatCpu, formatMemory, parseQuantity } from './jobs-quantity';

/** Hard limits of a tool namespace (Toolforge's defaults). */
export const NAMESPACE_QUOTA = {
  pods: 16,
  jobs: 15,
  cpu: '8',
  memory: '16Gi',
  cronjobs: 50,
  deployments: 16,
} as const;

interface QuotaItem {
  name: string;
  limit: string;
  used: string | null;
}

const live = (phase: string | undefined) => phase === 'Pending' || phase === 'Running';

/** The quota response's `quota` for a tool's jobs. */
export function jobQuota(jobs: readonly JobRecord[]): { categories: { name: string; items: QuotaItem[] }[] } {
  let pods = 0;
  let batchJobs = 0;
  let cpu = 0;
  let memory = 0;
  for (const job of jobs) {
    const active =
      job.spec.job_type === 'continuous' ? live(job.pod?.phase) : job.runs.some((run) => live(run.pod.phase));
    if (!active) continue;
    const replicas = job.spec.job_type === 'continuous' ? (job.spec.replicas ?? 1) : 1;
    pods += replicas;
    if (job.spec.job_type !== 'continuous') batchJobs += 1;
    cpu += parseQuantity(job.spec.cpu ?? DEFAULT_CPU) * replicas;
    memory += parseQuantity(job.spec.memory ?? DEFAULT_MEMORY) * replicas;
  }
  const count = (type: string) => jobs.filter((j) => j.spec.job_type === type).length;
  return {
    categories: [
      {
        name: 'Running jobs',
        items: [
          {
            name: 'Total running jobs at once (Kubernetes pods)',
            limit: String(NAMESPACE_QUOTA.pods),
            used: String(pods),
          },
          {
            name: 'Running one-off and cron jobs',
            limit: String(NAMESPACE_QUOTA.jobs),
            used: String(batchJobs),
          },
          { name: 'CPU', limit: formatCpu(NAMESPACE_QUOTA.cpu), used: formatCpu(String(cpu)) },
          { name: 'Memory', limit: formatMemory(NAMESPACE_QUOTA.memory), used: formatMemory(String(memory)) },
        ],
      },
      {
        name: 'Per-job limits',
        items: [
          { name: 'CPU', limit: formatCpu(CONTAINER_LIMITS.maxCpu), used: null },
          { name: 'Memory', limit: formatMemory(CONTAINER_LIMITS.maxMemory), used: null },
        ],
      },
      {
        name: 'Job definitions',
        items: [
          { name: 'Cron jobs', limit: String(NAMESPACE_QUOTA.cronjobs), used: String(count('scheduled')) },
          {
            name: 'Continuous jobs (including web services)',
            limit: String(NAMESPACE_QUOTA.deployments),
            used: String(count('continuous')),
          },
        ],
      },
    ],
  };
}
