/**
 * One file upload from chat to the media host: open the platform download, stream it through the
 * media client's multipart upload (nothing is held whole in memory or on disk), edit the progress
 * card at most once per `editMs`, then show the uploaded file (or what went wrong). Used by the
 * upload queue's worker, and in the receiving process for files that cannot be reopened elsewhere.
 */
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { CardPublishing } from '../core/card-publisher';
import type { ChatUser, MessageHandle } from '../core/command';
import { DeckhandError, newReferenceId } from '../core/errors';
import type { DraftCard } from '../core/reply';
import { translator } from '../i18n/translate';
import { scrubSecrets } from '../secrets';
import type { MediaClient, MediaService, UploadedFile } from '../services/media';
import { linksOf } from '../services/media/links';
import { type UploadView, viewIn } from './upload-view';

/** What an upload needs from the application. */
export interface UploadRunDeps {
  media: MediaService;
  view: UploadView;
  /** Edits the upload's card. */
  cards: Pick<CardPublishing, 'update'>;
  /** At most one progress edit per this many ms. */
  editMs: number;
  logger: Logger;
}

/** One file to upload, as plain data (what the queue carries, plus what the command adds). */
export interface FileUploadData {
  user: ChatUser;
  /** The progress card. */
  handle: MessageHandle;
  name: string;
  size?: number | undefined;
  mimeType?: string | undefined;
  /** Move the file into this folder once uploaded. */
  folderId?: string | undefined;
  /** Give the file this title once uploaded. */
  title?: string | undefined;
  /** The language of the first card: every edit of it is written in it. */
  language?: string | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The failure card of an error: its own words for Deckhand errors, a reference for bugs; in
 * `language`, the first card's.
 */
export function failureCard(
  deps: Pick<UploadRunDeps, 'view' | 'logger'>,
  name: string,
  error: unknown,
  language?: string,
): DraftCard {
  const view = viewIn(deps.view, language);
  if (error instanceof DeckhandError) {
    return view.failed(name, scrubSecrets(error.message), error.hint ? scrubSecrets(error.hint) : undefined);
  }
  const reference = newReferenceId();
  deps.logger.error({ err: error, reference, file: name }, 'media upload failed');
  const say = translator(language);
  return view.failed(
    name,
    say.t('upload-run-internal-error', reference),
    say.t('upload-run-internal-error-hint'),
  );
}

/** Edits the progress card at most once per `editMs`, never two edits at once. */
class ProgressCard {
  private sent = 0;
  private shown = -1;
  private lastEdit = Date.now();
  private lastSample = { at: Date.now(), sent: 0 };
  private rate = 0;
  private editing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly view: UploadView;

  constructor(
    private readonly deps: UploadRunDeps,
    private readonly data: FileUploadData,
  ) {
    this.view = viewIn(deps.view, data.language);
    this.timer = setInterval(() => this.tick(), Math.min(250, deps.editMs));
    this.timer.unref();
  }

  /** Records the bytes sent so far. */
  bytes(sent: number): void {
    this.sent = sent;
  }

  /** Stops editing and waits for the last edit, then for the polite gap before the next one. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.editing;
    await sleep(Math.max(0, this.lastEdit + this.deps.editMs - Date.now()));
  }

  private tick(): void {
    const now = Date.now();
    if (this.sent === 0 || this.sent === this.shown || now - this.lastEdit < this.deps.editMs) return;
    const elapsed = (now - this.lastSample.at) / 1000;
    if (elapsed > 0) this.rate = (this.sent - this.lastSample.sent) / elapsed;
    this.lastSample = { at: now, sent: this.sent };
    this.lastEdit = now;
    this.shown = this.sent;
    const card = this.view.progress({
      name: this.data.name,
      sent: this.sent,
      total: this.data.size,
      bytesPerSecond: this.rate,
    });
    this.editing = this.editing
      .then(() => this.deps.cards.update(this.data.handle, card))
      .catch((error) => this.deps.logger.warn({ err: error }, 'could not update the upload card'));
  }
}

/** Renames and moves a fresh upload as asked; returns it with its final title. */
async function finish(client: MediaClient, file: UploadedFile, data: FileUploadData): Promise<UploadedFile> {
  if (data.title) await client.files.rename(file.fileCode, data.title);
  if (data.folderId && data.folderId !== '0') await client.files.move(file.fileCode, data.folderId);
  return data.title ? { ...file, title: data.title } : file;
}

/**
 * Uploads one file and leaves its card showing the result. Resolves with the uploaded file, or
 * undefined when it failed (the card says why); it does not throw for failures a user can act on.
 */
export async function runFileUpload(
  deps: UploadRunDeps,
  data: FileUploadData,
  open: () => Promise<Readable>,
): Promise<UploadedFile | undefined> {
  let progress: ProgressCard | undefined;
  try {
    const client = await deps.media.forUser(data.user);
    // Asking for the upload server first checks the key before the platform download starts.
    const server = await client.uploads.server();
    const stream = await open();
    progress = new ProgressCard(deps, data);
    const uploaded = await client.uploads.send(
      { name: data.name, mimeType: data.mimeType, stream },
      (sent) => progress?.bytes(sent),
      { server },
    );
    const file = await finish(client, uploaded, data);
    await progress.stop();
    const view = viewIn(deps.view, data.language);
    await deps.cards.update(data.handle, view.uploaded(file, linksOf(file.fileCode, file.downloadUrl)));
    deps.logger.info({ file: file.fileCode, size: file.size, user: data.user.id }, 'media upload done');
    return file;
  } catch (error) {
    await progress?.stop();
    await deps.cards
      .update(data.handle, failureCard(deps, data.name, error, data.language))
      .catch((err) => deps.logger.warn({ err }, 'could not update the upload card'));
    return undefined;
  }
}
