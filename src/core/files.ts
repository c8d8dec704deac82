import type { Readable } from 'node:stream';

/**
 * A file a user gave the bot (Telegram document, Slack file share, Discord attachment), exposed as a
 * reference: nothing is downloaded until `open()` is called, and then it streams.
 */
export interface IncomingFile {
  /** File name as the user sent it. */
  name: string;
  /** Size in bytes, when the platform says. */
  size?: number;
  mimeType?: string;
  /** Starts the download; the stream yields the bytes as they arrive. */
  open(): Promise<Readable>;
}
