/** Remote uploads: the host downloads a file from a URL into the account, in its own queue. */
import { z } from 'zod';
import { numeric, text } from './envelope';
import { type RemoteUpload, type RemoteUploadAdded, RemoteUploadSchema, type Slots } from './schemas';
import { type MediaSession, parseResult } from './session';

/** Statuses of a transfer that is not over yet. */
export const UNFINISHED_REMOTE_STATUSES = new Set(['pending', 'working']);

/** One action on the transfer queue (`urlupload/actions` takes one per call). */
export type RemoteAction =
  | { kind: 'restart-errors' }
  | { kind: 'clear-errors' }
  | { kind: 'clear-all' }
  | { kind: 'delete'; fileCode: string };

const AddedSchema = z.looseObject({
  result: z.looseObject({ filecode: z.string() }),
  total_slots: numeric.optional(),
  used_slots: numeric.optional(),
  new_title: text,
});

const SlotsSchema = z.looseObject({ total_slots: numeric.optional(), used_slots: numeric.optional() });

/** `upload/url` and `urlupload/*`. */
export class RemoteUploadsApi {
  constructor(private readonly session: MediaSession) {}

  /**
   * Queues a transfer from `url`; the file code is assigned at once, the file appears when the
   * transfer finishes. A URL already queued is refused (400).
   */
  async add(url: string, options: { folderId?: string; title?: string } = {}): Promise<RemoteUploadAdded> {
    const added = await this.session.call({
      path: '/api/upload/url',
      query: { url, fld_id: options.folderId, new_title: options.title },
      what: 'media-api-call-remote-upload',
      read: (e) => parseResult(AddedSchema, e, 'media-api-call-remote-upload'),
    });
    return {
      fileCode: added.result.filecode,
      total: added.total_slots ?? 0,
      used: added.used_slots ?? 0,
      newTitle: added.new_title ?? '',
    };
  }

  /** Every transfer in the queue. */
  list(): Promise<RemoteUpload[]> {
    return this.session.call({
      path: '/api/urlupload/list',
      what: 'media-api-call-remote-upload-list',
      read: (e) =>
        parseResult(z.array(RemoteUploadSchema), e.result ?? [], 'media-api-call-remote-upload-list'),
    });
  }

  /** One transfer, or undefined once it dropped off the queue (finished, or deleted). */
  async status(fileCode: string): Promise<RemoteUpload | undefined> {
    const items = await this.session.call({
      path: '/api/urlupload/status',
      query: { file_code: fileCode },
      fileCode,
      what: 'media-api-call-remote-upload-status',
      read: (e) =>
        parseResult(z.array(RemoteUploadSchema), e.result ?? [], 'media-api-call-remote-upload-status'),
    });
    return items.find((i) => i.fileCode === fileCode);
  }

  /** Slots in use and in all (the slot counts sit at the top level, as strings). */
  async slots(): Promise<Slots> {
    const slots = await this.session.call({
      path: '/api/urlupload/slots',
      what: 'media-api-call-remote-upload-slots',
      read: (e) => parseResult(SlotsSchema, e, 'media-api-call-remote-upload-slots'),
    });
    return { total: slots.total_slots ?? 0, used: slots.used_slots ?? 0 };
  }

  /** Runs one action on the queue; returns the host's description of what it did. */
  async action(action: RemoteAction): Promise<string> {
    const query: Record<string, string | number> =
      action.kind === 'restart-errors'
        ? { restart_errors: 1 }
        : action.kind === 'clear-errors'
          ? { clear_errors: 1 }
          : action.kind === 'clear-all'
            ? { clear_all: 1 }
            : { delete_code: action.fileCode };
    return this.session.call({
      path: '/api/urlupload/actions',
      query,
      what: 'media-api-call-remote-upload-action',
      msgIsDescription: true,
      ...(action.kind === 'delete' ? { fileCode: action.fileCode } : {}),
      read: (e) => e.msg ?? 'Done',
    });
  }
}
