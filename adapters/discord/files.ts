/** Discord attachments as the core's {@link IncomingFile}: nothing is downloaded until `open()`. */
import type { Readable } from 'node:stream';
import type { APIAttachment } from 'discord.js';
import { request } from 'undici';
import { UnreachableError, UpstreamError } from '../../src/core/errors';
import type { FileResolver, IncomingFile } from '../../src/core/files';
import { t } from '../../src/i18n/translate';

/** Streams an attachment from Discord's CDN (its URL is signed; no token is needed). */
async function download(url: string, filename: string, timeoutMs: number): Promise<Readable> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  } catch (error) {
    throw new UnreachableError('discord', t('en', 'discord-file-download-failed', filename), {
      cause: error,
    });
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new UpstreamError(
      'discord',
      response.statusCode,
      t('en', 'discord-file-status', response.statusCode, filename),
      t('en', 'discord-file-attach-again'),
    );
  }
  return response.body;
}

/**
 * A reference to an attachment; `open()` streams it from Discord's CDN. Its locator (the signed CDN
 * URL) lets a worker download it again (see {@link discordFileResolver}).
 */
export function attachmentFile(attachment: APIAttachment, timeoutMs = 30_000): IncomingFile {
  return {
    name: attachment.filename,
    size: attachment.size,
    ...(attachment.content_type ? { mimeType: attachment.content_type } : {}),
    open: () => download(attachment.url, attachment.filename, timeoutMs),
    locator: { platform: 'discord', url: attachment.url, name: attachment.filename },
  };
}

/** Opens a located attachment in any process. */
export function discordFileResolver(timeoutMs = 30_000): FileResolver {
  return async (locator) => {
    const url = String(locator.url ?? '');
    if (!/^https?:\/\//.test(url)) throw new Error('a Discord file locator has no attachment URL');
    return download(url, String(locator.name ?? 'attachment'), timeoutMs);
  };
}
