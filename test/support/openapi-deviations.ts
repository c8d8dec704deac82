/**
 * The documented deviations of the Toolforge services from their OpenAPI descriptions
 * (specs/toolforge/README.md), as {@link KnownDeviation}s for `expectConforms` callers to pass.
 */
import type { KnownDeviation } from './openapi';

const COMPONENTS_ERROR_ENVELOPE = {
  type: 'object',
  required: ['messages'],
  properties: {
    messages: {
      allOf: [{ $ref: '#/components/schemas/ResponseMessages' }, { type: 'object', required: ['error'] }],
    },
  },
  not: { required: ['data'] },
};

const BUILDS_MESSAGES = { $ref: '#/components/schemas/ResponseMessages' };

/**
 * The documented deviations of the Toolforge services from their specs (specs/toolforge/README.md),
 * for callers to pass explicitly.
 */
export const TOOLFORGE_DEVIATIONS: Record<'builds' | 'components' | 'jobs', KnownDeviation[]> = {
  builds: [
    {
      operation: 'start',
      status: 409,
      kind: 'undeclared-status',
      schema: BUILDS_MESSAGES,
      reason: 'README: 409 when maxParallelBuilds (4) unfinished builds exist; not in the spec',
    },
    {
      operation: 'start',
      status: 400,
      kind: 'body',
      schema: { anyOf: [{ type: 'string' }, BUILDS_MESSAGES] },
      reason: 'README: a body echo cannot bind answers 400 with a bare JSON string (B internal/api.go)',
    },
    {
      operation: 'logs',
      status: 200,
      kind: 'stream-error-line',
      schema: { allOf: [BUILDS_MESSAGES, { type: 'object', required: ['error'] }] },
      reason: 'spec: an error after streaming started is sent as the last line (InternalError)',
    },
    {
      operation: '*',
      status: 403,
      kind: 'undeclared-status',
      schema: BUILDS_MESSAGES,
      reason: 'README auth model: the gateway answers 403 to a path of another tool',
    },
  ],
  components: [
    {
      operation: '*',
      status: 422,
      kind: 'body',
      schema: COMPONENTS_ERROR_ENVELOPE,
      reason: 'README: 422 is the ApiResponse envelope with messages.error, not HTTPValidationError',
    },
    ...[401, 403, 404, 409, 500].map(
      (status): KnownDeviation => ({
        operation: '*',
        status,
        kind: 'undeclared-status',
        schema: COMPONENTS_ERROR_ENVELOPE,
        reason:
          'README: HTTPException errors (401 auth, 403 gateway, 404 missing, 409 conflicts) use the envelope; only 200/422 are declared',
      }),
    ),
    {
      operation: 'metrics',
      status: 200,
      kind: 'content-type',
      reason: 'declared as JSON, served as Prometheus text/plain',
    },
  ],
  jobs: [
    {
      operation: 'create',
      status: 201,
      kind: 'undeclared-status',
      schema: { $ref: '#/components/schemas/JobResponse' },
      reason: 'README: the code answers 201 to a create, the spec says 200',
    },
    {
      operation: 'create',
      status: 409,
      kind: 'undeclared-status',
      schema: { type: 'object', required: ['error'] },
      reason: 'README: 409 when a job with that name exists and is not completed',
    },
    {
      operation: '*',
      status: 422,
      kind: 'undeclared-status',
      schema: { type: 'object', required: ['detail'] },
      reason: "README: body schema violations get FastAPI's default 422 {detail:[…]}",
    },
    {
      operation: '*',
      status: 403,
      kind: 'undeclared-status',
      schema: { type: 'object', required: ['error'] },
      reason: 'README: a missing x-toolforge-tool header (or another tool) is 403',
    },
  ],
};
