/**
 * One look at a remote upload: still queued or transferring (progress), failed, or finished (the
 * transfer left the queue and the file is in the account). The spec names `pending`, `working` and
 * `error`; any other status, or no entry at all, means the transfer is over, so the file decides.
 */
import { NotFoundError } from '../core/errors';
import type { DraftCard } from '../core/reply';
import { type Translator, translator } from '../i18n/translate';
import { type MediaClient, UNFINISHED_REMOTE_STATUSES } from '../services/media';
import { linksOf } from '../services/media/links';
import type { UploadView } from './upload-view';

/** What one poll found. */
export interface RemoteObservation {
  card: DraftCard;
  /** True when there is nothing more to follow. */
  finished: boolean;
}

/**
 * Polls one remote upload; the card's own sentences are `say`'s (the view's language). Errors other
 * than "the file does not exist" are thrown.
 */
export async function observeRemote(
  client: MediaClient,
  view: UploadView,
  url: string,
  fileCode: string,
  say: Translator = translator('en'),
): Promise<RemoteObservation> {
  const transfer = await client.remote.status(fileCode);
  if (transfer && UNFINISHED_REMOTE_STATUSES.has(transfer.status)) {
    return { card: view.remoteProgress(url, fileCode, transfer), finished: false };
  }
  if (transfer?.status === 'error') {
    return {
      card: view.remoteFailed(url, fileCode, say.t('upload-run-remote-fetch-failed')),
      finished: true,
    };
  }
  try {
    const file = await client.files.info(fileCode);
    const host = await client.playerHost();
    const links = host ? linksOf(fileCode, `${host}/d/${fileCode}`) : undefined;
    return { card: view.remoteDone(url, file, links), finished: true };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    if (transfer) return { card: view.remoteProgress(url, fileCode, transfer), finished: false };
    return {
      card: view.remoteFailed(url, fileCode, say.t('upload-run-remote-vanished')),
      finished: true,
    };
  }
}
