/**
 * The `upload` queue's worker: file uploads from chat (the platform download reopened from its
 * locator through this process's adapters) and remote uploads followed to their end — one job per
 * followed upload, moved back to `delayed` between polls like a watch (poll-job.ts), so it survives restarts.
 */
import type { Job } from 'bullmq';
import { DeckhandError, UnreachableError, UpstreamError } from '../core/errors';
import type { FileResolvers } from '../core/files';
import type { DraftCard } from '../core/reply';
import type { WatchEvent } from '../core/watch';
import { type Translator, translator } from '../i18n/translate';
import { createPollProcessor } from './poll-job';
import { observeRemote, type RemoteObservation } from './upload-remote';
import { failureCard, runFileUpload, type UploadRunDeps } from './upload-run';
import type { RemoteFollowJobData, UploadJobData } from './upload-service';
import { viewIn } from './upload-view';

/** What the upload worker needs. */
export interface UploadProcessorDeps extends UploadRunDeps {
  files: FileResolvers;
  /** Delay between polls of a remote upload (the docs ask for 3–5 s at most). */
  remotePollMs: number;
  /** A remote upload followed longer than this is given up (the card says so). */
  maxAgeMs: number;
  /** Told when an upload ended, for the direct message to whoever started it (`/notify`). */
  ended?: UploadEnded | undefined;
}

/** Hears of an ended upload: its event (with who started it) and the card of the direct message. */
export type UploadEnded = (event: WatchEvent, card: DraftCard) => Promise<unknown>;

/** The end of an upload as an event of the person who started it. */
export function uploadEnded(
  job: Job<UploadJobData>,
  name: string,
  outcome: 'success' | 'failure',
  detail: string,
): { event: WatchEvent; card: DraftCard } {
  const data = job.data;
  const to = outcome === 'success' ? 'uploaded' : 'failed';
  const event: WatchEvent = {
    tool: 'media',
    kind: 'upload',
    id: String(job.id),
    from: 'uploading',
    to,
    at: Date.now(),
    detail,
    outcome,
    terminal: true,
    starter: {
      user: data.user,
      conversationId: data.handle.conversationId,
      startedAt: job.timestamp,
      card: data.handle,
    },
  };
  const say = readerOf(job);
  const card: DraftCard = {
    title:
      outcome === 'success'
        ? say.t('upload-run-finished-title', name)
        : say.t('upload-run-failed-title', name),
    text: detail,
    status: outcome === 'success' ? 'success' : 'danger',
    locale: say.language,
  };
  return { event, card };
}

/**
 * The words of the direct message about an upload: the language the starter's platform said, English
 * when it said none.
 */
function readerOf(job: Job<UploadJobData>): Translator {
  return translator(job.data.user.locale);
}

/** Consecutive failed polls after which a remote upload is given up. */
const MAX_ERRORS = 20;

/** Creates the processor of the `upload` queue. */
export function createUploadProcessor(deps: UploadProcessorDeps) {
  const edit = async (data: RemoteFollowJobData, card: Parameters<UploadRunDeps['cards']['update']>[1]) => {
    await deps.cards
      .update(data.handle, card)
      .catch((error) =>
        deps.logger.warn({ err: error, upload: data.fileCode }, 'could not update the upload card'),
      );
  };

  const follow = createPollProcessor<RemoteFollowJobData, RemoteObservation>({
    label: 'remote upload',
    look: async (data) =>
      observeRemote(
        await deps.media.forUser(data.user),
        viewIn(deps.view, data.language),
        data.url,
        data.fileCode,
        translator(data.language),
      ),
    seen: async (data, seen, next) => {
      if (seen.finished) {
        await edit(data, seen.card);
        return { done: 'finished' };
      }
      const json = JSON.stringify(seen.card);
      if (json === data.lastCard || Date.now() - (data.lastEditAt ?? 0) < deps.editMs) return { next };
      await edit(data, seen.card);
      return { next: { ...next, lastCard: json, lastEditAt: Date.now() } };
    },
    fatal: async (data, error) => {
      const transient =
        error instanceof UnreachableError || (error instanceof UpstreamError && error.transient);
      if (!(error instanceof DeckhandError) || transient) return undefined;
      await edit(data, failureCard(deps, data.url, error, data.language));
      return 'failed';
    },
    giveUp: async (data, reason, error) => {
      if (reason === 'failing') {
        await edit(data, failureCard(deps, data.url, error, data.language));
        return 'failed';
      }
      await edit(
        data,
        viewIn(deps.view, data.language).remoteFailed(
          data.url,
          data.fileCode,
          translator(data.language).t(
            'upload-run-stopped-following',
            String(Math.round(deps.maxAgeMs / 60_000)),
          ),
        ),
      );
      return 'too-old';
    },
    delayMs: ({ errors }) => deps.remotePollMs * (errors > 0 ? Math.min(8, 2 ** errors) : 1),
    maxErrors: MAX_ERRORS,
    maxAgeMs: deps.maxAgeMs,
    // The queue's slots are the file uploads' too: a follow gives its slot back between looks.
    releaseBetweenLooks: true,
    logger: deps.logger,
  });

  const tell = async (job: Job<UploadJobData>, name: string, ok: boolean, detail: string) => {
    if (!deps.ended) return;
    const { event, card } = uploadEnded(job, name, ok ? 'success' : 'failure', detail);
    await deps
      .ended(event, card)
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, upload: job.id }, 'could not queue the direct message of an upload'),
      );
  };

  return async (job: Job<UploadJobData>, token?: string): Promise<string> => {
    const data = job.data;
    const say = readerOf(job);
    if (data.kind === 'remote') {
      const result = await follow(job as Job<RemoteFollowJobData>, token);
      if (result === 'finished')
        await tell(job, data.url, true, say.t('upload-run-on-media-host', data.fileCode));
      else if (result === 'failed' || result === 'too-old')
        await tell(job, data.url, false, say.t('upload-run-remote-unfinished'));
      return result;
    }
    const uploaded = await runFileUpload(deps, data, () => deps.files.open(data.locator));
    await tell(
      job,
      data.name,
      uploaded !== undefined,
      uploaded ? say.t('upload-run-on-media-host', uploaded.fileCode) : say.t('upload-run-see-card'),
    );
    return uploaded ? uploaded.fileCode : 'failed';
  };
}
