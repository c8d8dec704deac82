/**
 * Job objects as the jobs API returns them (`DefinedOneOffJob` | `DefinedScheduledJob` |
 * `DefinedContinuousJob`, J `tjf/api/models.py`), with pydantic's field order.
 *
 * `include_unset=true` (the default) returns every field with the runtime's defaults resolved, the
 * status fields and `schedule_actual`; `false` returns only what was set at creation plus `image`,
 * `job_type` (and `continuous: true` for continuous jobs): no status, no `image_state`.
 */
import { resolveImage } from './jobs-images';
import { type JobRecord, resolveSpec } from './jobs-model';
import { jobStatus } from './jobs-status';

const COMMON_ORDER = [
  'name',
  'cmd',
  'imagename',
  'filelog',
  'filelog_stdout',
  'filelog_stderr',
  'emails',
  'mount',
  'memory',
  'cpu',
] as const;

const TYPE_ORDER: Record<string, readonly string[]> = {
  'one-off': ['job_type', 'retry'],
  scheduled: ['job_type', 'timeout', 'retry', 'schedule', 'schedule_actual'],
  // `publish` sits between port_protocol and health_check in DefinedContinuousJob (J def0efb).
  continuous: ['job_type', 'continuous', 'replicas', 'port', 'port_protocol', 'publish', 'health_check'],
};

/** A job as the API shows it. */
export function jobView(record: JobRecord, includeUnset = true, now = Date.now()): Record<string, unknown> {
  const { spec } = record;
  const typeOrder = TYPE_ORDER[spec.job_type] ?? [];
  if (!includeUnset) {
    const given = spec as unknown as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const field of COMMON_ORDER) if (given[field] !== undefined) out[field] = given[field];
    out.image = spec.imagename;
    for (const field of typeOrder) {
      if (field === 'continuous') out.continuous = true;
      else if (field !== 'schedule_actual' && given[field] !== undefined) out[field] = given[field];
    }
    return out;
  }
  const resolved = resolveSpec(spec, record.tool);
  const status = jobStatus(record, now);
  const out: Record<string, unknown> = {};
  for (const field of COMMON_ORDER) out[field] = resolved[field];
  out.image = spec.imagename;
  out.image_state = resolveImage(spec.imagename)?.state ?? 'unknown';
  out.status_short = status.status_short;
  out.status_long = status.status_long;
  for (const field of typeOrder) {
    out[field] = field === 'schedule_actual' ? (record.scheduleActual ?? null) : resolved[field];
  }
  out.status = status.status;
  return out;
}
