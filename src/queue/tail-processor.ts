import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { CardPublishing } from '../core/card-publisher';
import { DeckhandError, NotFoundError } from '../core/errors';
import type { TailView } from '../core/tail';
import { type Translator, translator } from '../i18n/translate';
import type { ToolhostClient, ToolhostClientFactory } from '../services/toolhost';
import { FINISHED_BUILD_STATUSES, jobRunEnd } from '../services/toolhost';
import type { QueueTailService, TailJobData } from './tail-service';
import type { TailCursor } from './tail-state';

/** What the tail processor needs. */
export interface TailDeps {
  toolhost: ToolhostClientFactory;
  tails: QueueTailService;
  view: TailView;
  /** The tail's cards in a language (the live card, its edits and the final card); {@link view} when absent. */
  viewIn?(say: Translator): TailView;
  /** Edits the tail's card. */
  cards: Pick<CardPublishing, 'update'>;
  /** Masks registered secrets (global, and the tool's) in log lines before they are kept in Redis. */
  scrub?(lines: string[], tool: string): Promise<string[]>;
  logger: Logger;
  /** At most one card edit per this many ms. */
  editMs: number;
  /**
   * The least time between two edits in a conversation that its platform's edit budget allows (a
   * group that takes 20 edits a minute: 3 s); a tail there edits no more often than that.
   */
  editGapMs?(conversationId: string): number;
  /** A tail ends by itself after this long. */
  maxMs: number;
  /**
   * The conversation's language (`/language --here`), for the card's words of a tail whose job does
   * not carry the language of its first card; English when absent.
   */
  language?(conversationId: string): Promise<string | undefined>;
}

/** Lines shown on the live card. */
const LIVE_LINES = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows a job's or a build's NDJSON log stream into one card, edited at most once per `editMs`, until
 * Stop, the time limit, or the end of the job/build; then the card carries the whole transcript as a
 * file. Lines are appended to the transcript in Redis in arrival order with a resume cursor, so a
 * reconnect (or another worker taking over after a crash) neither loses nor repeats a line.
 */
export function createTailProcessor(deps: TailDeps) {
  return async (job: Job<TailJobData>): Promise<string> => {
    const data = job.data;
    const editMs = Math.max(deps.editMs, deps.editGapMs?.(data.handle.conversationId) ?? 0);
    // The first card's language, carried by the job; a job without one reads the conversation's.
    const say = translator(
      data.language ?? (await deps.language?.(data.handle.conversationId).catch(() => undefined)),
    );
    const view = deps.viewIn?.(say) ?? deps.view;
    // Where the conversation's budget slows the card, it says so, and where to follow faster.
    const slowed =
      editMs > deps.editMs ? ` · ${say.t('tail-run-slowed', String(Math.round(editMs / 100) / 10))}` : '';
    const state = deps.tails.stateOf(job.id as string);
    const client = deps.toolhost.forTool(data.tool);
    const received: TailCursor = await state.cursor();
    let pending: string[] = [];
    let reason: string | undefined;
    let lastEdit = data.startedAt;
    let shownTotal = -1;
    let streamAbort = new AbortController();

    const end = (why: string) => {
      reason ??= why;
      streamAbort.abort();
    };

    /** Moves received lines to the transcript (with the cursor after them). */
    const persist = async () => {
      const batch = pending;
      pending = [];
      await state.append(deps.scrub ? await deps.scrub(batch, data.tool) : batch, { ...received });
    };
    /**
     * Edits the live card when there is something new and the last edit is old enough. The interval
     * counts from when the previous edit was delivered, so edits never reach the chat closer than that.
     */
    let editing = false;
    const edit = async () => {
      const total = received.lines;
      if (editing || total === shownTotal || Date.now() - lastEdit < editMs) return;
      editing = true;
      shownTotal = total;
      try {
        const live = view.live(data, await state.last(LIVE_LINES), total);
        await deps.cards
          .update(data.handle, {
            ...live,
            ...(slowed ? { footer: `${live.footer ?? ''}${slowed}` } : {}),
            tool: data.tool,
          })
          .catch((error) => deps.logger.warn({ err: error, tail: job.id }, 'could not update the tail card'));
      } finally {
        lastEdit = Date.now();
        editing = false;
      }
    };

    let ticks = 0;
    let closed = false;
    let inFlight: Promise<void> = Promise.resolve();
    const tickMs = Math.min(250, editMs);
    const ticker = setInterval(() => {
      if (closed) return;
      inFlight = (async () => {
        ticks += 1;
        if (await state.stopRequested()) end('stopped');
        else if (Date.now() - data.startedAt >= deps.maxMs)
          end(say.t('tail-run-time-limit', limitText(deps.maxMs, say)));
        else if (data.kind === 'job' && ticks % Math.max(1, Math.round(5000 / tickMs)) === 0) {
          const finished = await jobFinished(client, data.id, say);
          if (finished) setTimeout(() => end(finished), editMs).unref();
        }
        await persist();
        await edit();
      })().catch((error) => deps.logger.warn({ err: error, tail: job.id }, 'tail tick failed'));
    }, tickMs);
    ticker.unref();

    try {
      let failures = 0;
      while (reason === undefined) {
        try {
          for await (const line of openLines(client, data, received, streamAbort.signal, view)) {
            pending.push(line.text);
            Object.assign(received, line.cursor);
          }
          if (reason === undefined && data.kind === 'build') {
            const build = await client.builds.show(data.id);
            if (FINISHED_BUILD_STATUSES.has(build.status)) end(say.t('tail-run-build-finished'));
          }
          failures = 0;
        } catch (error) {
          if (reason !== undefined) break;
          if (error instanceof NotFoundError) {
            end(data.kind === 'job' ? say.t('tail-run-job-gone') : say.t('tail-run-build-gone'));
            break;
          }
          failures += 1;
          const message = error instanceof DeckhandError ? error.message : String(error);
          deps.logger.warn({ tail: job.id, error: message, failures }, 'log stream broke; reconnecting');
        }
        if (reason === undefined) {
          await sleep(Math.min(10_000, 250 * 2 ** Math.min(failures, 6)));
          streamAbort = new AbortController();
        }
      }
    } finally {
      closed = true;
      clearInterval(ticker);
      await inFlight;
    }
    await persist();
    await sleep(Math.max(0, lastEdit + editMs - Date.now()));
    const transcript = await state.transcript();
    await deps.cards.update(data.handle, {
      ...view.ended(data, transcript, reason ?? 'stopped'),
      tool: data.tool,
    });
    await state.clear();
    return reason ?? 'stopped';
  };
}

/** Lines of the right stream from where the tail left off, each with the cursor after it. */
async function* openLines(
  client: ToolhostClient,
  data: TailJobData,
  from: TailCursor,
  signal: AbortSignal,
  view: TailView,
): AsyncGenerator<{ text: string; cursor: TailCursor }> {
  if (data.kind === 'build') {
    let skip = from.lines;
    let lines = from.lines;
    for await (const entry of client.builds.logs(data.id, { follow: true, signal })) {
      if (skip > 0) {
        skip -= 1;
        continue;
      }
      lines += 1;
      yield { text: entry.line, cursor: { lines } };
    }
    return;
  }
  const resume = from.lastTime;
  let skipAtResume = resume ? (from.atLastTime ?? 0) : 0;
  let { lines, lastTime, atLastTime = 0 } = from;
  const options = resume ? { since: resume, lines: 5000, signal } : { lines: 20, signal };
  for await (const entry of client.logs.stream(data.id, options)) {
    if (resume && entry.datetime < resume) continue;
    if (resume && entry.datetime === resume && skipAtResume > 0) {
      skipAtResume -= 1;
      continue;
    }
    lines += 1;
    atLastTime = entry.datetime === lastTime ? atLastTime + 1 : 1;
    lastTime = entry.datetime;
    yield { text: view.formatEntry(entry), cursor: { lines, lastTime, atLastTime } };
  }
}

/** Why a followed job is over (a one-off or scheduled run that finished, a deleted job), or undefined. */
async function jobFinished(
  client: ToolhostClient,
  name: string,
  say: Translator,
): Promise<string | undefined> {
  try {
    const job = await client.jobs.show(name);
    const ended = jobRunEnd(job);
    if (job.job_type !== 'one-off' || !ended) return undefined;
    return ended === 'failed' ? say.t('tail-run-job-failed') : say.t('tail-run-job-succeeded');
  } catch (error) {
    if (error instanceof NotFoundError) return say.t('tail-run-job-deleted');
    return undefined;
  }
}

/** `15 min`, `30 s`. */
function limitText(ms: number, say: Translator): string {
  return ms >= 60_000
    ? say.t('tail-run-minutes', String(Math.round(ms / 60_000)))
    : say.t('tail-run-seconds', String(Math.round(ms / 1000)));
}
