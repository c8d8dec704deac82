/**
 * The one composition root: the only place that builds services, stores, queues, emulators and
 * adapters (and the only importer of `src/sandbox/` besides tests). `src/cli/` starts processes
 * through what is exported here.
 */
export { configuredPlatforms } from '../../adapters';
export { MISSING_SECRET_KEY } from '../store/vault-cipher';
export { type App, type AppOptions, createApp } from './app';
export { commandRegistry, MANIFESTS, REGISTRARS } from './catalogue';
export { adapterContext } from './host';
export { type PreflightFailure, redisPreflight } from './redis-preflight';
export { runSandbox } from './sandbox-standalone';
export { createAdapters, createShell, listenWeb, openWeb, type ShellIo } from './serve';
export { describeServiceModes, type ServiceModes, serviceModes } from './service-modes';
