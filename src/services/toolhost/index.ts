/**
 * Typed client of the tool hosting platform (Toolforge builds, components, jobs, logs, envvars).
 *
 * ```ts
 * const toolhost = ToolhostClientFactory.fromConfig(config);
 * const client = toolhost.forTool('mytool');
 * const deployment = await client.components.createDeployment({ forceBuild: true });
 * const footer = client.takeWarnings();
 * ```
 */
export { type BuildLogsOptions, BuildsApi } from './builds';
export * from './builds-schemas';
export { type ToolhostAuthMode, ToolhostClient } from './client';
export * from './common-schemas';
export { ComponentsApi } from './components';
export * from './components-schemas';
export { EnvvarsApi } from './envvars';
export * from './envvars-schemas';
export { readToolhostError, ToolhostAccessError, type ToolhostAccessProblem } from './errors';
export {
  type ClientCertificate,
  type ForToolOptions,
  ToolhostClientFactory,
  type ToolhostClientFactoryOptions,
  type ToolhostSandboxEndpoints,
} from './factory';
export {
  buildLogTail,
  FAILURE_LOG_LINES,
  jobFailureFacts,
  jobHealth,
  jobRestarts,
} from './failure-facts';
export { jobOutcome, jobRunEnd } from './job-state';
export { type JobLogsOptions, JobsApi } from './jobs';
export * from './jobs-schemas';
export { type LogStreamOptions, LogsApi } from './logs';
export * from './logs-schemas';
export { type ApiHealth, healthProblems, outageNote, PLATFORM_APIS } from './platform-health';
export type { ToolhostApi } from './session';
export { checkToolConfig, type ToolConfigCheck } from './tool-config-check';
export type { WarningListener } from './warnings';
