/**
 * The one composition root: the only place that builds services, stores, queues, emulators and
 * adapters (and the only importer of `packages/sandbox` besides tests and `bench/`). This index is for tests and
 * benches; `src/main.ts` and `src/cli/` import the modules they need one by one, so each command loads
 * only its own dependencies (no chat SDK for `status`, no emulator for `doctor`).
 */
export { type App, type AppOptions, createApp } from './app';
export { commandRegistry } from './catalogue';
export { adapterContext } from './host';
export { createAdapters, listenWeb, openWeb } from './serve';
export { describeServiceModes, type ServiceModes, serviceModes } from './service-modes';
export { createShell, type ShellIo } from './shell';
