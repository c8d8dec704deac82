/**
 * Cards of the media commands: upload progress and results, remote uploads, files. Also the
 * {@link UploadView} the upload queue draws its cards with.
 */

import { actionTo } from '../../src/core/action-ref';
import type { ActionRequest, CardField, DraftCard } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { FileLinks, UploadProgress, UploadView } from '../../src/queue/upload-view';
import type { FileInfo, RemoteUpload, UploadedFile } from '../../src/services/media';
import { formatBytes, formatLength, percent } from './format';
import { mediaPlayerCommand } from './player';
import { mediaMoveSignature, mediaRenameSignature, mediaUploadsSignature } from './signatures';

/** The buttons under a file: Rename, Move to folder, Player link. */
export function fileActions(code: string, say: Translator): ActionRequest[] {
  return [
    actionTo(mediaRenameSignature, { code }, { label: say.t('media-button-rename') }),
    actionTo(mediaMoveSignature, { code }, { label: say.t('media-button-move') }),
    actionTo(mediaPlayerCommand, { code }, { label: say.t('media-button-player') }),
  ];
}

/** Download and embed links as fields (the URL itself is the value, so every platform shows it). */
export function linkFields(links: FileLinks | undefined, say: Translator): CardField[] {
  if (!links) return [];
  return [
    { label: say.t('media-field-download'), value: links.download, url: links.download },
    { label: say.t('media-field-embed'), value: links.embed, url: links.embed },
  ];
}

/** `45.2 MB of 200.0 MB (22%) · 12.3 MB/s`. */
export function progressLine(
  sent: number,
  total: number | undefined,
  bytesPerSecond: number | undefined,
  say: Translator,
): string {
  const share = percent(sent, total);
  const amount = total
    ? say.t('media-progress-of', formatBytes(sent, say), formatBytes(total, say))
    : formatBytes(sent, say);
  const rate = bytesPerSecond && bytesPerSecond > 0 ? ` · ${formatBytes(bytesPerSecond, say)}/s` : '';
  return `${amount}${share ? ` (${share})` : ''}${rate}`;
}

/** The first card of an upload, before any byte moved. */
export function uploadStartCard(
  name: string,
  size: number | undefined,
  queued: boolean,
  say: Translator,
): DraftCard {
  const amount = size !== undefined ? formatBytes(size, say) : say.t('media-size-unknown');
  return {
    title: say.t('media-uploading', name),
    text: say.t(queued ? 'media-upload-queued' : 'media-upload-starting', amount),
    status: 'progress',
  };
}

function playable(canPlay: boolean, say: Translator): string {
  return canPlay ? say.t('media-playable-yes') : say.t('media-playable-encoding');
}

/** The cards of uploads in `say`'s words. */
export function uploadView(say: Translator): UploadView {
  return {
    inLanguage: (language) => uploadView(translator(language)),
    progress(p: UploadProgress): DraftCard {
      return {
        title: say.t('media-uploading', p.name),
        text: progressLine(p.sent, p.total, p.bytesPerSecond, say),
        status: 'progress',
      };
    },
    uploaded(file: UploadedFile, links: FileLinks | undefined): DraftCard {
      return {
        title: say.t('media-uploaded', file.title || file.fileCode),
        status: 'success',
        fields: [
          { label: say.t('media-field-size'), value: formatBytes(file.size, say), inline: true },
          { label: say.t('media-field-file-code'), value: file.fileCode, inline: true },
          ...(file.length
            ? [{ label: say.t('media-field-length'), value: formatLength(file.length), inline: true }]
            : []),
          { label: say.t('media-field-playable'), value: playable(file.canPlay, say), inline: true },
          ...linkFields(links, say),
        ],
        actions: fileActions(file.fileCode, say),
        footer: say.t('media-footer-file', file.fileCode),
      };
    },
    failed(name: string, message: string, hint?: string): DraftCard {
      return {
        title: say.t('media-upload-failed', name),
        text: hint ? `${message}\n${hint}` : message,
        status: 'danger',
      };
    },
    remoteProgress(url: string, code: string, transfer: RemoteUpload | undefined): DraftCard {
      const state = transfer?.status ?? 'pending';
      const text =
        state === 'working'
          ? say.t(
              'media-remote-transferring',
              progressLine(transfer?.bytesDownloaded ?? 0, transfer?.bytesTotal || undefined, undefined, say),
            )
          : say.t('media-remote-queued');
      return {
        title: say.t('media-remote-title'),
        text,
        status: 'progress',
        fields: [
          { label: say.t('media-field-source'), value: url },
          { label: say.t('media-field-file-code'), value: code, inline: true },
          { label: say.t('media-field-status'), value: state, inline: true },
        ],
        actions: [
          actionTo(
            mediaUploadsSignature,
            { action: 'delete', code },
            { label: say.t('media-button-cancel'), style: 'danger' },
          ),
        ],
        footer: say.t('media-footer-file', code),
      };
    },
    remoteDone(url: string, file: FileInfo, links: FileLinks | undefined): DraftCard {
      return {
        title: say.t('media-uploaded', file.title || file.fileCode),
        text: say.t('media-remote-fetched', url),
        status: 'success',
        fields: [
          { label: say.t('media-field-size'), value: formatBytes(file.size, say), inline: true },
          { label: say.t('media-field-file-code'), value: file.fileCode, inline: true },
          { label: say.t('media-field-playable'), value: playable(file.canPlay, say), inline: true },
          ...linkFields(links, say),
        ],
        actions: fileActions(file.fileCode, say),
        footer: say.t('media-footer-file', file.fileCode),
      };
    },
    remoteFailed(url: string, code: string, reason: string): DraftCard {
      return {
        title: say.t('media-remote-failed'),
        text: reason,
        status: 'danger',
        fields: [
          { label: say.t('media-field-source'), value: url },
          { label: say.t('media-field-file-code'), value: code, inline: true },
        ],
        footer: say.t('media-remote-failed-footer', code),
      };
    },
  };
}

/**
 * The cards of uploads, used by the upload queue: in English, and in the language an upload's job
 * carries (its first card's) through `inLanguage`.
 */
export const mediaUploadView: UploadView = uploadView(translator('en'));

/** A file's details (`/media info`). */
export function fileInfoCard(file: FileInfo, links: FileLinks | undefined, say: Translator): DraftCard {
  return {
    title: file.title || file.fileCode,
    status: 'info',
    fields: [
      { label: say.t('media-field-file-code'), value: file.fileCode, inline: true },
      { label: say.t('media-field-size'), value: formatBytes(file.size, say), inline: true },
      { label: say.t('media-field-length'), value: formatLength(file.length), inline: true },
      { label: say.t('media-field-views'), value: say.number(file.views), inline: true },
      { label: say.t('media-field-uploaded'), value: `${file.uploaded} UTC`, inline: true },
      {
        label: say.t('media-field-last-view'),
        value: file.lastView ? `${file.lastView} UTC` : say.t('media-never'),
        inline: true,
      },
      { label: say.t('media-field-playable'), value: playable(file.canPlay, say), inline: true },
      ...linkFields(links, say),
    ],
    actions: fileActions(file.fileCode, say),
  };
}
