/**
 * A command handed from the process that received it (a `web` process: verify, dedupe, ack) to the
 * process that runs it (a `worker`). Everything here is plain data: the input as the user gave it, who
 * and where (files as locators), and the platform's own reply place (a channel and a response URL, an
 * interaction token, a chat), from which the worker's adapter rebuilds the surface.
 */

import type { CardSurface } from './card-surface';
import type { Invocation } from './command';
import type { Platform } from './conversation';
import type { FileLocator, FileResolvers, IncomingFile } from './files';

/** What the user asked for, in the shape the command runner takes it. */
export type CommandInput =
  | { kind: 'text'; text: string }
  | { kind: 'structured'; command: string; args: Record<string, unknown> }
  | { kind: 'action'; actionId: string }
  | { kind: 'form'; formId: string; values: Record<string, string> };

/** A file as queued: its description and where it can be opened again. */
export interface QueuedFile {
  name: string;
  size?: number;
  mimeType?: string;
  locator: FileLocator;
}

/** An invocation as queued (files become locators). */
export type QueuedInvocation = Omit<Invocation, 'files'> & { files?: QueuedFile[] };

/** One queued command: one per platform delivery. */
export interface CommandJob {
  /** The delivery key (`<platform>:trigger:…`): one job per delivery, and the command's idempotency key. */
  key: string;
  platform: Platform;
  input: CommandInput;
  invocation: QueuedInvocation;
  /** The platform's reply place, as its adapter wrote it (JSON). */
  place: Record<string, unknown>;
  /** The invocation id the web process gave it: the worker runs the command under it. */
  invocationId?: string;
}

/** Where a web process hands commands to the workers (implemented on BullMQ in `src/queue`). */
export interface CommandQueue {
  /** Queues a command; a second job with the same key is ignored. Throws when it could not be queued. */
  enqueue(job: CommandJob): Promise<void>;
}

/** A worker's reply surface for a queued command; `finish` tidies up after the run (a deferred interaction). */
export interface QueuedSurface extends CardSurface {
  finish?(): Promise<void>;
}

/** Rebuilds the reply surface of a queued command from its place; registered by each adapter. */
export type SurfaceFactory = (place: Record<string, unknown>, invocation: Invocation) => QueuedSurface;

/** The surface factories of the adapters running in this process, by platform. */
export class CommandSurfaces {
  private readonly byPlatform = new Map<Platform, SurfaceFactory>();

  /** Registers (or replaces) the factory of a platform. */
  register(platform: Platform, factory: SurfaceFactory): void {
    this.byPlatform.set(platform, factory);
  }

  /** The factory of a platform; throws when its adapter does not run in this process. */
  for(platform: Platform): SurfaceFactory {
    const factory = this.byPlatform.get(platform);
    if (!factory) throw new Error(`no ${platform} adapter is running in this process to answer commands`);
    return factory;
  }
}

/**
 * The invocation as plain data. A file without a locator can only be read in this process: such an
 * invocation cannot be queued, and `undefined` is returned.
 */
export function queueableInvocation(invocation: Invocation): QueuedInvocation | undefined {
  const { files, ...rest } = invocation;
  if (!files || files.length === 0) return rest;
  const queued: QueuedFile[] = [];
  for (const file of files) {
    if (!file.locator) return undefined;
    queued.push({
      name: file.name,
      locator: file.locator,
      ...(file.size !== undefined ? { size: file.size } : {}),
      ...(file.mimeType !== undefined ? { mimeType: file.mimeType } : {}),
    });
  }
  return { ...rest, files: queued };
}

/** The invocation of a queued command, its files reopened through this process's resolvers. */
export function revivedInvocation(queued: QueuedInvocation, resolvers: FileResolvers): Invocation {
  const { files, ...rest } = queued;
  if (!files || files.length === 0) return rest;
  const revived: IncomingFile[] = files.map((file) => ({
    ...file,
    open: () => resolvers.open(file.locator),
  }));
  return { ...rest, files: revived };
}
