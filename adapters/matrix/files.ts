/**
 * Files people send in a room (`m.file`, `m.image`, `m.video`, `m.audio`), exposed to the core as
 * {@link IncomingFile} references: nothing is downloaded until `open()`, which streams the file from
 * the media repository's authenticated download (`GET /_matrix/client/v1/media/download/{server}/{id}`,
 * with the bot's token; the unauthenticated `/_matrix/media/v3/download` is deprecated since Matrix
 * 1.11). The locator holds only the `mxc://` URI and the name, so a worker reopens it with its own token.
 */
import type { Readable } from 'node:stream';
import type { MatrixClient } from 'matrix-js-sdk';
import { request } from 'undici';
import { UnreachableError, UpstreamError } from '../../src/core/errors';
import type { FileResolver, IncomingFile } from '../../src/core/files';
import { t } from '../../src/i18n/translate';

const FILE_TYPES = new Set(['m.file', 'm.image', 'm.video', 'm.audio']);

/** The file of a message's content, with its caption (the `body`, when `filename` is separate). */
export function fileOf(
  content: Record<string, unknown>,
): { mxc: string; name: string; size?: number; mimeType?: string; caption?: string } | undefined {
  if (!FILE_TYPES.has(String(content.msgtype)) || typeof content.url !== 'string') return undefined;
  if (!content.url.startsWith('mxc://')) return undefined;
  const body = typeof content.body === 'string' ? content.body : '';
  const filename = typeof content.filename === 'string' ? content.filename : undefined;
  const info = (content.info ?? {}) as { size?: unknown; mimetype?: unknown };
  return {
    mxc: content.url,
    name: filename ?? (body || 'file'),
    ...(typeof info.size === 'number' ? { size: info.size } : {}),
    ...(typeof info.mimetype === 'string' ? { mimeType: info.mimetype } : {}),
    // Matrix 1.10: with a `filename`, the `body` is a caption.
    ...(filename && body && body !== filename ? { caption: body } : {}),
  };
}

/** Streams an `mxc://` file from the bot's homeserver. */
async function download(client: MatrixClient, mxc: string): Promise<Readable> {
  const http = client.mxcUrlToHttp(mxc, undefined, undefined, undefined, false, false, true);
  if (!http) throw new UpstreamError('matrix', 400, t('en', 'matrix-file-not-media', mxc.slice(0, 100)));
  // The SDK adds `allow_redirect`, which the authenticated download does not take (it always may redirect).
  const url = new URL(http);
  url.searchParams.delete('allow_redirect');
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, { headers: { authorization: `Bearer ${client.getAccessToken() ?? ''}` } });
  } catch (error) {
    throw new UnreachableError('matrix', t('en', 'matrix-file-no-answer'), { cause: error });
  }
  if (response.statusCode !== 200) {
    const text = await response.body.text();
    throw new UpstreamError(
      'matrix',
      response.statusCode,
      t('en', 'matrix-file-download-failed', text.slice(0, 200)),
    );
  }
  return response.body;
}

/** The file of a message as the core sees it. */
export function incomingFile(
  client: MatrixClient,
  file: NonNullable<ReturnType<typeof fileOf>>,
): IncomingFile {
  return {
    name: file.name,
    size: file.size,
    mimeType: file.mimeType,
    open: () => download(client, file.mxc),
    locator: { platform: 'matrix', mxc: file.mxc, name: file.name },
  };
}

/** Reopens a located Matrix file (any process with the bot's token). */
export function matrixFileResolver(client: MatrixClient): FileResolver {
  return (locator) => download(client, String(locator.mxc));
}
