/**
 * The `upload` queue's worker: file uploads from chat (the platform download reopened from its
 * locator through this process's adapters) and remote uploads followed to their end — one job per
 * followed upload, moved back to `delayed` between polls like a watch, so it survives restarts.
 */
import { DelayedError, type Job } from 'bullmq';
import { DeckhandError, UnreachableError, UpstreamError } from '../core/errors';
import type { FileResolvers } from '../core/files';
import { observeRemote } from './upload-remote';
import { failureCard, runFileUpload, type UploadRunDeps } from './upload-run';
import type { RemoteFollowJobData, UploadJobData } from './upload-service';

/** What the upload worker needs. */
export interface UploadProcessorDeps extends UploadRunDeps {
  files: FileResolvers;
  /** Delay between polls of a remote upload (the docs ask for 3–5 s at most). */
  remotePollMs: number;
  /** A remote upload followed longer than this is given up (the card says so). */
  maxAgeMs: number;
}

/** Consecutive failed polls after which a remote upload is given up. */
const MAX_ERRORS = 20;

/** Creates the processor of the `upload` queue. */
export function createUploadProcessor(deps: UploadProcessorDeps) {
  const edit = async (data: RemoteFollowJobData, card: Parameters<UploadRunDeps['updateCard']>[1]) => {
    await deps
      .updateCard(data.handle, card)
      .catch((error) =>
        deps.logger.warn({ err: error, upload: data.fileCode }, 'could not update the upload card'),
      );
  };

  const follow = async (
    job: Job<UploadJobData>,
    data: RemoteFollowJobData,
    token?: string,
  ): Promise<string> => {
    let errors = data.errors;
    let next: RemoteFollowJobData = { ...data };
    try {
      const client = await deps.media.forUser(data.user);
      const seen = await observeRemote(client, deps.view, data.url, data.fileCode);
      errors = 0;
      const json = JSON.stringify(seen.card);
      const due = Date.now() - (data.lastEditAt ?? 0) >= deps.editMs;
      if (seen.finished) {
        await edit(data, seen.card);
        return 'finished';
      }
      if (json !== data.lastCard && due) {
        await edit(data, seen.card);
        next = { ...next, lastCard: json, lastEditAt: Date.now() };
      }
    } catch (error) {
      const transient =
        error instanceof UnreachableError || (error instanceof UpstreamError && error.transient);
      const permanent = error instanceof DeckhandError && !transient;
      errors += 1;
      if (permanent || errors >= MAX_ERRORS) {
        await edit(data, failureCard(deps, data.url, error));
        return 'failed';
      }
      deps.logger.warn(
        { err: error, upload: data.fileCode, errors },
        'remote upload poll failed; backing off',
      );
    }
    if (Date.now() - data.startedAt > deps.maxAgeMs) {
      await edit(
        data,
        deps.view.remoteFailed(
          data.url,
          data.fileCode,
          `Deckhand stopped following it after ${Math.round(deps.maxAgeMs / 60_000)} min; /media uploads shows where it is.`,
        ),
      );
      return 'too-old';
    }
    await job.updateData({ ...next, errors });
    const delay = deps.remotePollMs * (errors > 0 ? Math.min(8, 2 ** errors) : 1);
    await job.moveToDelayed(Date.now() + delay, token);
    throw new DelayedError();
  };

  return async (job: Job<UploadJobData>, token?: string): Promise<string> => {
    const data = job.data;
    if (data.kind === 'remote') return follow(job, data, token);
    const uploaded = await runFileUpload(deps, data, () => deps.files.open(data.locator));
    return uploaded ? uploaded.fileCode : 'failed';
  };
}
