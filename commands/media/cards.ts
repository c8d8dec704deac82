/**
 * Cards of the media commands: upload progress and results, remote uploads, files. Also the
 * {@link UploadView} the upload queue draws its cards with.
 */

import { actionTo } from '../../src/core/action-ref';
import type { ActionRequest, CardField, DraftCard } from '../../src/core/reply';
import type { FileLinks, UploadProgress, UploadView } from '../../src/queue/upload-view';
import type { FileInfo, RemoteUpload, UploadedFile } from '../../src/services/media';
import { formatBytes, formatLength, percent } from './format';
import { mediaPlayerCommand } from './player';
import { mediaMoveSignature, mediaRenameSignature, mediaUploadsSignature } from './signatures';

/** The buttons under a file: Rename, Move to folder, Player link. */
export function fileActions(code: string): ActionRequest[] {
  return [
    actionTo(mediaRenameSignature, { code }, { label: 'Rename' }),
    actionTo(mediaMoveSignature, { code }, { label: 'Move to folder' }),
    actionTo(mediaPlayerCommand, { code }, { label: 'Player link' }),
  ];
}

/** Download and embed links as fields (the URL itself is the value, so every platform shows it). */
export function linkFields(links: FileLinks | undefined): CardField[] {
  if (!links) return [];
  return [
    { label: 'Download', value: links.download, url: links.download },
    { label: 'Embed', value: links.embed, url: links.embed },
  ];
}

/** `45.2 MB of 200.0 MB (22%) · 12.3 MB/s`. */
export function progressLine(sent: number, total: number | undefined, bytesPerSecond?: number): string {
  const share = percent(sent, total);
  const amount = total ? `${formatBytes(sent)} of ${formatBytes(total)}` : formatBytes(sent);
  const rate = bytesPerSecond && bytesPerSecond > 0 ? ` · ${formatBytes(bytesPerSecond)}/s` : '';
  return `${amount}${share ? ` (${share})` : ''}${rate}`;
}

/** The first card of an upload, before any byte moved. */
export function uploadStartCard(name: string, size: number | undefined, queued: boolean): DraftCard {
  return {
    title: `Uploading ${name}`,
    text: `${size !== undefined ? formatBytes(size) : 'Size unknown'} · ${queued ? 'queued' : 'starting'}`,
    status: 'progress',
  };
}

function playable(canPlay: boolean): string {
  return canPlay ? 'yes' : 'encoding — playable in a few minutes';
}

/** The cards of uploads, used by the upload queue. */
export const mediaUploadView: UploadView = {
  progress(p: UploadProgress): DraftCard {
    return {
      title: `Uploading ${p.name}`,
      text: progressLine(p.sent, p.total, p.bytesPerSecond),
      status: 'progress',
    };
  },
  uploaded(file: UploadedFile, links: FileLinks | undefined): DraftCard {
    return {
      title: `Uploaded ${file.title || file.fileCode}`,
      status: 'success',
      fields: [
        { label: 'Size', value: formatBytes(file.size), inline: true },
        { label: 'File code', value: file.fileCode, inline: true },
        ...(file.length ? [{ label: 'Length', value: formatLength(file.length), inline: true }] : []),
        { label: 'Playable', value: playable(file.canPlay), inline: true },
        ...linkFields(links),
      ],
      actions: fileActions(file.fileCode),
      footer: `file ${file.fileCode}`,
    };
  },
  failed(name: string, message: string, hint?: string): DraftCard {
    return {
      title: `Upload of ${name} failed`,
      text: hint ? `${message}\n${hint}` : message,
      status: 'danger',
    };
  },
  remoteProgress(url: string, code: string, transfer: RemoteUpload | undefined): DraftCard {
    const state = transfer?.status ?? 'pending';
    const text =
      state === 'working'
        ? `Transferring: ${progressLine(transfer?.bytesDownloaded ?? 0, transfer?.bytesTotal || undefined)}`
        : 'Queued on the media host; the transfer starts when a slot is free.';
    return {
      title: 'Remote upload',
      text,
      status: 'progress',
      fields: [
        { label: 'Source', value: url },
        { label: 'File code', value: code, inline: true },
        { label: 'Status', value: state, inline: true },
      ],
      actions: [
        actionTo(mediaUploadsSignature, { action: 'delete', code }, { label: 'Cancel', style: 'danger' }),
      ],
      footer: `file ${code}`,
    };
  },
  remoteDone(url: string, file: FileInfo, links: FileLinks | undefined): DraftCard {
    return {
      title: `Uploaded ${file.title || file.fileCode}`,
      text: `Fetched from ${url}`,
      status: 'success',
      fields: [
        { label: 'Size', value: formatBytes(file.size), inline: true },
        { label: 'File code', value: file.fileCode, inline: true },
        { label: 'Playable', value: playable(file.canPlay), inline: true },
        ...linkFields(links),
      ],
      actions: fileActions(file.fileCode),
      footer: `file ${file.fileCode}`,
    };
  },
  remoteFailed(url: string, code: string, reason: string): DraftCard {
    return {
      title: 'Remote upload failed',
      text: reason,
      status: 'danger',
      fields: [
        { label: 'Source', value: url },
        { label: 'File code', value: code, inline: true },
      ],
      footer: `file ${code} · /media uploads retry-errors restarts failed transfers`,
    };
  },
};

/** A file's details (`/media info`). */
export function fileInfoCard(file: FileInfo, links: FileLinks | undefined): DraftCard {
  return {
    title: file.title || file.fileCode,
    status: 'info',
    fields: [
      { label: 'File code', value: file.fileCode, inline: true },
      { label: 'Size', value: formatBytes(file.size), inline: true },
      { label: 'Length', value: formatLength(file.length), inline: true },
      { label: 'Views', value: String(file.views), inline: true },
      { label: 'Uploaded', value: `${file.uploaded} UTC`, inline: true },
      { label: 'Last view', value: file.lastView ? `${file.lastView} UTC` : 'never', inline: true },
      { label: 'Playable', value: playable(file.canPlay), inline: true },
      ...linkFields(links),
    ],
    actions: fileActions(file.fileCode),
  };
}
