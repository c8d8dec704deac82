/**
 * Published continuous jobs: the jobs API's `publish: "/"` and the public web front that serves them.
 *
 * Sources (J = toolforge-jobs-api, commit def0efb "support exposing continuous jobs to the
 * internet", merged as dcbc33d; the live API carries it, specs/toolforge/README.md):
 * - `publish` is `""` (default) or `"/"` (pydantic pattern `^/$`, J `tjf/api/models.py`);
 * - publishing needs a port, and a tcp one (J `tjf/core/models.py ContinuousJob.validate_continuous_job`:
 *   "publish requires port to be set", "publish requires port_protocol set to tcp");
 * - creating a published job fails when another route already owns `/` of the tool's host
 *   (J `tjf/runtimes/k8s/httproute.py check_httproute_host_conflict`, a `TjfValidationError`: 400);
 *   the job itself is skipped, so an update re-publishes freely;
 * - the route: an HTTPRoute for host `<tool>.<public domain>` whose backend is the job's service on
 *   the job's `port` (J `httproute.py get_k8s_http_route_object`), attached to the Istio gateway
 *   `istio-gateway/toolforge`. Deleting the job deletes the route (J `runtime.py delete_job`).
 *
 * The public front ({@link createPublicWebApp}) routes by `Host` like that gateway: a published job
 * whose pod runs answers (and its "access log" line reaches the job's logs); a published job with no
 * running pod gets Envoy's 503 `no healthy upstream`; a host no route claims gets Toolforge's
 * "No webservice" 404 page (the front proxy's default backend, the `fourohfour` tool).
 */
import { Hono } from 'hono';
import type { SandboxContext } from './context';
import { jobsRuntimeOf } from './jobs-engine';
import type { JobRecord, JobSpec } from './jobs-model';

/** The message of the 400 a second published job gets (J `httproute.py _check_httproute_rules_conflict`). */
export function publishConflictMessage(tool: string, domain: string): string {
  return (
    'Attempt to create job failed. The job cannot be published because ' +
    `the domain '${tool}.${domain}' and path '/' are already in use by another public job or webservice.`
  );
}

/** The core model's rule on `publish` (a `ValueError`, printed as a pydantic error by the caller). */
export function publishRuleProblem(spec: JobSpec): string | undefined {
  if (spec.job_type !== 'continuous' || !spec.publish) return undefined;
  if (spec.port === undefined || spec.port === null) return 'publish requires port to be set';
  if ((spec.port_protocol ?? 'tcp') !== 'tcp') return 'publish requires port_protocol set to tcp';
  return undefined;
}

/** Whether a job is published (continuous, `publish: "/"`). */
export function isPublished(record: JobRecord): boolean {
  return record.spec.job_type === 'continuous' && record.spec.publish === '/';
}

/** The public domain of a sandbox (`toolforge.org` unless the sandbox serves its own front). */
export function publicDomainOf(ctx: SandboxContext): string {
  return ctx.publicDomain ?? 'toolforge.org';
}

/**
 * The 400 body when creating `spec` would publish a second job on the tool's host, else undefined.
 * Call it before creating a job (POST, or PATCH of a job that does not exist yet).
 */
export function publishConflict(
  ctx: SandboxContext,
  tool: string,
  spec: JobSpec,
): { error: string[] } | undefined {
  if (spec.job_type !== 'continuous' || spec.publish !== '/') return undefined;
  const other = jobsRuntimeOf(ctx)
    .list(tool)
    .find((record) => record.spec.name !== spec.name && isPublished(record));
  return other ? { error: [publishConflictMessage(tool, publicDomainOf(ctx))] } : undefined;
}

/** The tool a `Host` header names under `domain` (`mytool.toolforge.org:443` → `mytool`). */
export function toolOfHost(host: string | undefined, domain: string): string | undefined {
  const name = (host ?? '').toLowerCase().replace(/:\d+$/, '');
  const suffix = `.${domain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return undefined;
  const tool = name.slice(0, -suffix.length);
  return /^[a-z0-9][a-z0-9-]*$/.test(tool) ? tool : undefined;
}

const NO_WEBSERVICE = (url: string) =>
  `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>No webservice</title></head>\n<body><h1>No webservice</h1>\n<p>The URI you have requested, <code>${url.replace(/[<>&"]/g, '')}</code>, is not currently serviced.</p></body></html>\n`;

/** The public web front of the sandbox: `<tool>.<domain>` → the tool's published job. */
export function createPublicWebApp(ctx: SandboxContext): Hono {
  const app = new Hono();
  app.all('*', (c) => {
    const domain = publicDomainOf(ctx);
    const tool = toolOfHost(c.req.header('host'), domain);
    const runtime = jobsRuntimeOf(ctx);
    const record = tool ? runtime.list(tool).find(isPublished) : undefined;
    if (!tool || !record) return c.html(NO_WEBSERVICE(c.req.url), 404);
    const pod = runtime.currentPod(record);
    if (pod?.phase !== 'Running' || pod.waiting) {
      return c.text('no healthy upstream', 503, { server: 'envoy' });
    }
    const path = new URL(c.req.url).pathname;
    runtime.emit(tool, record.spec.name, [`${c.req.method} ${path} 200 (via ${tool}.${domain})`]);
    return c.text(
      `${tool}: served by job ${record.spec.name} (pod ${pod.name}, port ${record.spec.port})\n`,
      200,
      {
        server: 'envoy',
      },
    );
  });
  return app;
}
