/**
 * The embedded emulators of Deckhand's services, started by name with {@link startEmulators}.
 * Each emulator's module is imported only when it runs, so this entry point loads nothing heavy:
 * an installation that talks to real services never loads the emulators.
 */
import type { CalendarSandbox } from './calendar/index';
import type { MediaSandbox } from './media/index';
import type { PhabricatorSandbox } from './phabricator/index';
import type { SourcehostSandbox } from './sourcehost/index';
import type { ToolhostSandbox } from './toolhost/index';

export type { CalendarSandbox } from './calendar/index';
export type { MediaSandbox } from './media/index';
export type { PhabricatorSandbox } from './phabricator/index';
export type { SourcehostSandbox } from './sourcehost/index';
export type { ToolhostSandbox } from './toolhost/index';
export { JOB_STEPS } from './toolhost/job-steps';

/** The running emulator of each service, by its code name. */
export interface EmulatorsByName {
  toolhost: ToolhostSandbox;
  sourcehost: SourcehostSandbox;
  calendar: CalendarSandbox;
  media: MediaSandbox;
  phabricator: PhabricatorSandbox;
}

/** A service's code name. */
export type EmulatorName = keyof EmulatorsByName;

/** Every emulator, in the order {@link startEmulators} starts them. */
export const EMULATOR_NAMES: readonly EmulatorName[] = [
  'toolhost',
  'media',
  'calendar',
  'sourcehost',
  'phabricator',
];

/** The emulators that run: one entry per started service. */
export type Emulators = Partial<EmulatorsByName>;

/** What the emulators share. */
export interface EmulatorOptions {
  /** Duration of one lifecycle step in ms (the tool platform, media and source host emulators). */
  stepMs?: number;
  /** Where the media host keeps uploaded bytes (a fresh directory under `<dataDir>/sandbox/media/`). */
  dataDir: string;
  /** The source host OAuth application's registered callback URL. */
  callbackUrl?: string;
}

/**
 * Starts the emulators named in `names` (each once, in {@link EMULATOR_NAMES} order) on 127.0.0.1
 * and returns them by name. When one fails to start, those already started are stopped again.
 */
export async function startEmulators(
  names: Iterable<EmulatorName>,
  options: EmulatorOptions,
): Promise<Emulators> {
  const wanted = new Set(names);
  const emulators: Emulators = {};
  try {
    for (const name of EMULATOR_NAMES.filter((n) => wanted.has(n))) {
      await startOne(emulators, name, options);
    }
    // Builds clone the source host's repositories at the commits it holds.
    if (emulators.toolhost && emulators.sourcehost)
      emulators.toolhost.ctx.sources = emulators.sourcehost.commits;
  } catch (error) {
    // The start failure is the one to report.
    await stopEmulators(emulators).catch(() => undefined);
    throw error;
  }
  return emulators;
}

async function startOne(emulators: Emulators, name: EmulatorName, options: EmulatorOptions): Promise<void> {
  const step = options.stepMs === undefined ? {} : { stepMs: options.stepMs };
  switch (name) {
    case 'toolhost':
      emulators.toolhost = await (await import('./toolhost/index')).startToolhostSandbox(step);
      return;
    case 'media':
      emulators.media = await (await import('./media/index')).startMediaSandbox({
        ...step,
        dataDir: options.dataDir,
      });
      return;
    case 'calendar':
      emulators.calendar = await (await import('./calendar/index')).startCalendarSandbox();
      return;
    case 'sourcehost':
      emulators.sourcehost = await (await import('./sourcehost/index')).startSourcehostSandbox({
        ...step,
        ...(options.callbackUrl ? { callbackUrl: options.callbackUrl } : {}),
      });
      return;
    case 'phabricator':
      emulators.phabricator = await (await import('./phabricator/index')).startPhabricatorSandbox();
      return;
  }
}

/**
 * Stops every emulator in `emulators`, the last started first. One that fails to stop does not keep
 * the others running: all are stopped, then the first failure is thrown.
 */
export async function stopEmulators(emulators: Emulators): Promise<void> {
  const failures: unknown[] = [];
  for (const name of [...EMULATOR_NAMES].reverse()) {
    await emulators[name]?.close().catch((error: unknown) => failures.push(error));
  }
  if (failures.length > 0) throw failures[0];
}
