/** Discord attachments as the core's {@link IncomingFile}: nothing is downloaded until `open()`. */
import type { Readable } from 'node:stream';
import type { APIAttachment } from 'discord.js';
import { request } from 'undici';
import { UnreachableError, UpstreamError } from '../../src/core/errors';
import type { IncomingFile } from '../../src/core/files';

/** A reference to an attachment; `open()` streams it from Discord's CDN. */
export function attachmentFile(attachment: APIAttachment, timeoutMs = 30_000): IncomingFile {
  return {
    name: attachment.filename,
    size: attachment.size,
    ...(attachment.content_type ? { mimeType: attachment.content_type } : {}),
    async open(): Promise<Readable> {
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(attachment.url, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      } catch (error) {
        throw new UnreachableError('discord', `Could not download ${attachment.filename}.`, { cause: error });
      }
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw new UpstreamError(
          'discord',
          response.statusCode,
          `Discord answered ${response.statusCode} for the attachment ${attachment.filename}.`,
          'Attach the file again: attachment links expire.',
        );
      }
      return response.body;
    },
  };
}
