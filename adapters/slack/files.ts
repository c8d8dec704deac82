import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { webApi } from '@slack/bolt';
import type { Redis } from 'ioredis';
import type { FileResolver, IncomingFile } from '../../src/core/files';
/** A file uploaded next to a card's message: text (a transcript) or bytes (a chart PNG). */
export interface SlackUpload {
  filename: string;
  content: string | Buffer;
  /** Alt text of an image (files.getUploadURLExternal `alt_text`). */
  altText?: string;
}

/** A file as Slack describes it in a message event (`files[]`). */
export interface SlackFileInfo {
  id: string;
  name?: string;
  title?: string;
  size?: number;
  mimetype?: string;
  url_private?: string;
  url_private_download?: string;
}

/**
 * Hosts the bot token may be sent to when downloading: Slack's file hosts, plus the host of the
 * configured API base (a local fake in tests, an Enterprise proxy in some set-ups).
 */
export function downloadHosts(apiUrl: string): Set<string> {
  return new Set(['files.slack.com', 'slack-files.com', new URL(apiUrl).host]);
}

/** Streams one Slack file with the bot token (the caller has checked the host). */
async function download(
  url: string,
  name: string,
  token: string,
  fetchImpl: typeof fetch,
): Promise<Readable> {
  const response = await fetchImpl(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) {
    throw new Error(`downloading ${name} from Slack failed (HTTP ${response.status})`);
  }
  return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
}

/**
 * Files shared with the bot as core file references: nothing is fetched until `open()`, which
 * streams the download (with the bot token, only to Slack's own hosts). With the workspace (`team`)
 * each file also carries a locator, so a worker can download it again (see {@link slackFileResolver}).
 */
export function incomingFiles(
  files: readonly SlackFileInfo[] | undefined,
  token: string,
  hosts: Set<string>,
  fetchImpl: typeof fetch = fetch,
  team?: string,
): IncomingFile[] {
  return (files ?? []).flatMap((file) => {
    const url = file.url_private_download ?? file.url_private;
    if (!url || !URL.canParse(url) || !hosts.has(new URL(url).host)) return [];
    const name = file.name ?? file.title ?? file.id;
    const incoming: IncomingFile = {
      name,
      size: file.size,
      ...(file.mimetype ? { mimeType: file.mimetype } : {}),
      open: () => download(url, name, token, fetchImpl),
      ...(team !== undefined ? { locator: { platform: 'slack', team, url, name } } : {}),
    };
    return [incoming];
  });
}

/**
 * Opens a located Slack file in any process: the token of its workspace, and only Slack's own hosts
 * (a locator is data from Redis, so its URL is checked again).
 */
export function slackFileResolver(
  tokenFor: (team: string) => Promise<string>,
  hosts: Set<string>,
  fetchImpl: typeof fetch = fetch,
): FileResolver {
  return async (locator) => {
    const url = String(locator.url ?? '');
    if (!URL.canParse(url) || !hosts.has(new URL(url).host)) {
      throw new Error('a Slack file locator points outside Slack');
    }
    const name = String(locator.name ?? 'file');
    return download(url, name, await tokenFor(String(locator.team ?? '')), fetchImpl);
  };
}

/** Uploads running in one process (a messenger), so a quick second update does not upload again. */
export type UploadsInFlight = Set<string>;

/** How far before an interrupted upload's start its file share is looked for (clock differences). */
const LOOKUP_MARGIN_MS = 60_000;

/** The name a card file is uploaded under. */
export function uploadName(filename: string): string {
  return filename.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'file.txt';
}

/**
 * Uploads a card's files next to its message (files upload v2: get URL, send bytes, complete), each
 * once per message even when the card is updated many times, and across a crash: when an upload
 * starts, its start time is recorded (`slack:uploading:`), and once Slack completed it, the file is
 * recorded as done (`slack:uploaded:`). An upload that started in a process that died before the
 * record of completion is looked for in the thread (or channel) first: a file of that name shared
 * there since shortly before that start is taken as done, otherwise it is uploaded again.
 */
export async function uploadCardFiles(options: {
  client: webApi.WebClient;
  redis: Redis;
  prefix: string;
  channel: string;
  /** Thread to put the files in (the card's message), when there is one. */
  thread?: string;
  /** What the upload belongs to, for the once-only check. */
  messageKey: string;
  files: readonly SlackUpload[];
  /** This process's uploads in flight. */
  inFlight: UploadsInFlight;
}): Promise<void> {
  const { redis } = options;
  const done = `${options.prefix}slack:uploaded:${options.messageKey}`;
  const started = `${options.prefix}slack:uploading:${options.messageKey}`;
  const fresh: { file: SlackUpload; digest: string }[] = [];
  for (const file of options.files) {
    const digest = createHash('sha256').update(file.filename).update('\0').update(file.content).digest('hex');
    if (options.inFlight.has(`${done}|${digest}`) || fresh.some((f) => f.digest === digest)) continue;
    if ((await redis.sismember(done, digest)) === 1) continue;
    const since = await redis.hget(started, digest);
    if (since && (await sharedSince(options, uploadName(file.filename), Number(since)))) {
      await redis.sadd(done, digest);
      continue;
    }
    fresh.push({ file, digest });
  }
  if (fresh.length === 0) return;
  const now = String(Date.now());
  const marks = redis.multi();
  for (const { digest } of fresh) marks.hsetnx(started, digest, now);
  await marks.expire(started, 7 * 24 * 3600).exec();
  for (const { digest } of fresh) options.inFlight.add(`${done}|${digest}`);
  try {
    await options.client.filesUploadV2({
      channel_id: options.channel,
      ...(options.thread ? { thread_ts: options.thread } : {}),
      file_uploads: fresh.map(({ file }) =>
        typeof file.content === 'string'
          ? { filename: uploadName(file.filename), content: file.content }
          : {
              filename: uploadName(file.filename),
              file: file.content,
              ...(file.altText ? { alt_text: file.altText.slice(0, 1000) } : {}),
            },
      ),
    });
    await redis
      .multi()
      .sadd(done, ...fresh.map((f) => f.digest))
      .expire(done, 7 * 24 * 3600)
      .hdel(started, ...fresh.map((f) => f.digest))
      .exec();
  } finally {
    for (const { digest } of fresh) options.inFlight.delete(`${done}|${digest}`);
  }
}

/**
 * True when a file named `name` was shared in the thread (or channel) since shortly before `since`
 * (ms): `conversations.replies` / `conversations.history` list a file share with its `files`. A
 * lookup Slack refuses counts as not found.
 */
async function sharedSince(
  options: { client: webApi.WebClient; channel: string; thread?: string },
  name: string,
  since: number,
): Promise<boolean> {
  const oldest = ((since - LOOKUP_MARGIN_MS) / 1000).toFixed(6);
  const args = { channel: options.channel, oldest, limit: 200 };
  try {
    const answer = options.thread
      ? await options.client.conversations.replies({ ...args, ts: options.thread })
      : await options.client.conversations.history(args);
    return (answer.messages ?? []).some((m) => (m.files ?? []).some((f) => f.name === name));
  } catch {
    // Cannot look (a missing history scope): upload again rather than lose the file.
    return false;
  }
}
