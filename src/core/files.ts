import type { Readable } from 'node:stream';
import type { MessageKey } from '../i18n/translate';
import type { Platform } from './conversation';

/**
 * Where a file a user gave the bot can be fetched again, as plain data: storable in Redis and
 * queueable, so a worker in another process can open the download (a stream cannot be queued).
 * It never holds a secret: the platform's resolver in the worker adds the bot token.
 *
 * Besides `platform`, the fields are the platform's own (a file id, or a `url` and a `team`), strings
 * or numbers only.
 */
export interface FileLocator {
  platform: Platform;
  [field: string]: string | number | undefined;
}

/**
 * A file a user gave the bot (a document, a file share, an attachment), exposed as a
 * reference: nothing is downloaded until `open()` is called, and then it streams.
 */
export interface IncomingFile {
  /** File name as the user sent it. */
  name: string;
  /** Size in bytes, when the platform says. */
  size?: number | undefined;
  mimeType?: string | undefined;
  /** Starts the download; the stream yields the bytes as they arrive. */
  open(): Promise<Readable>;
  /**
   * Where the file can be opened again from any process (see {@link FileResolvers}). Absent when the
   * adapter cannot say; the file can then only be read in the process that received it.
   */
  locator?: FileLocator;
}

/** Opens the download stream of a located file; registered by each adapter for its platform. */
export type FileResolver = (locator: FileLocator) => Promise<Readable>;

/**
 * The per-platform resolvers of this process: an adapter registers one when it starts (in `web` and
 * `worker` roles alike), and queued work opens files by locator through it.
 */
export class FileResolvers {
  private readonly byPlatform = new Map<Platform, FileResolver>();

  /** Registers (or replaces) the resolver of a platform. */
  register(platform: Platform, resolver: FileResolver): void {
    this.byPlatform.set(platform, resolver);
  }

  /** True when files of this platform can be opened here. */
  has(platform: Platform): boolean {
    return this.byPlatform.has(platform);
  }

  /** True when the file carries a locator this process can open. */
  canReopen(file: IncomingFile): file is IncomingFile & { locator: FileLocator } {
    return file.locator !== undefined && this.has(file.locator.platform);
  }

  /** Opens a located file; throws when no adapter of its platform runs in this process. */
  open(locator: FileLocator): Promise<Readable> {
    const resolver = this.byPlatform.get(locator.platform);
    if (!resolver) throw new Error(`no ${locator.platform} adapter is running in this process to open files`);
    return resolver(locator);
  }
}

/** What a command that takes files declares (a platform with command options adds an attachment option for it). */
export interface FilesDeclaration {
  /** The catalog message of what the file is for, shown by the platform. */
  description: MessageKey;
  /** True when the command cannot run without one. */
  required?: boolean;
}
