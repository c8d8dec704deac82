import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { webApi } from '@slack/bolt';
import type { Redis } from 'ioredis';
import type { FileResolver, IncomingFile } from '../../src/core/files';
import type { CardAttachment } from '../../src/core/reply';

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
      ...(file.size !== undefined ? { size: file.size } : {}),
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

/**
 * Uploads a card's files next to its message (files upload v2: get URL, send bytes, complete), each
 * once per message even when the card is updated many times.
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
  files: readonly CardAttachment[];
}): Promise<void> {
  const key = `${options.prefix}slack:uploaded:${options.messageKey}`;
  const fresh: { file: CardAttachment; digest: string }[] = [];
  for (const file of options.files) {
    const digest = createHash('sha256').update(file.filename).update('\0').update(file.content).digest('hex');
    if ((await options.redis.sadd(key, digest)) === 1) fresh.push({ file, digest });
  }
  await options.redis.expire(key, 7 * 24 * 3600);
  if (fresh.length === 0) return;
  try {
    await options.client.filesUploadV2({
      channel_id: options.channel,
      ...(options.thread ? { thread_ts: options.thread } : {}),
      file_uploads: fresh.map(({ file }) => ({
        filename: file.filename.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'file.txt',
        content: file.content,
      })),
    });
  } catch (error) {
    await options.redis.srem(key, ...fresh.map((f) => f.digest));
    throw error;
  }
}
