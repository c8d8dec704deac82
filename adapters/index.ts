export type { PlatformDescriptor, PlatformDoctor, Role } from './descriptor';
export { PLATFORMS, type PlatformName, platformNamed, TERMINAL } from './platforms';
export type {
  AdapterContext,
  AdapterFactory,
  ManifestSpec,
  PlatformAdapter,
  RegisterCommands,
} from './types';
