/**
 * How upload cards look; provided by the media commands (commands/media/cards.ts) so that the queue
 * only moves bytes and polls, and the card design stays with the commands.
 */
import type { DraftCard } from '../core/reply';
import type { FileInfo, RemoteUpload, UploadedFile } from '../services/media';
import type { FileLinks } from '../services/media/links';

/** Progress of a file upload. */
export interface UploadProgress {
  name: string;
  /** Bytes handed to the upload server so far. */
  sent: number;
  /** Size of the file, when the platform said. */
  total?: number | undefined;
  /** Recent rate, bytes per second. */
  bytesPerSecond: number;
}

/** The links of a file on the player host. */
export type { FileLinks };

/** The cards of uploads and remote uploads. */
export interface UploadView {
  /** A file on its way to the media host. */
  progress(progress: UploadProgress): DraftCard;
  /** A file uploaded from chat. */
  uploaded(file: UploadedFile, links: FileLinks | undefined): DraftCard;
  /** An upload that failed: what went wrong and what to do. */
  failed(name: string, message: string, hint?: string): DraftCard;
  /** A remote upload queued or transferring (`transfer` undefined before the first poll). */
  remoteProgress(url: string, fileCode: string, transfer: RemoteUpload | undefined): DraftCard;
  /** A remote upload that finished: the file is in the account. */
  remoteDone(url: string, file: FileInfo, links: FileLinks | undefined): DraftCard;
  /** A remote upload that failed or was removed from the queue. */
  remoteFailed(url: string, fileCode: string, reason: string): DraftCard;
  /** The same cards in another language (a code of `src/i18n/languages.ts`). */
  inLanguage?(language: string): UploadView;
}

/** `view` in `language` where it can be drawn in one (the language of an upload's first card). */
export function viewIn(view: UploadView, language: string | undefined): UploadView {
  return language && view.inLanguage ? view.inLanguage(language) : view;
}
