/**
 * Uploads as the commands see them. A file whose platform download can be reopened from any process
 * (it carries a locator and its adapter registered a resolver) goes on the `upload` queue, so a web
 * process only accepts it and a worker moves the bytes; any other file is uploaded right here.
 * Remote uploads are followed on the same queue until they finish.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { ChatUser, MessageHandle } from '../core/command';
import type { FileLocator, FileResolvers, IncomingFile } from '../core/files';
import { type FileUploadData, runFileUpload, type UploadRunDeps } from './upload-run';

/** A file upload job: the upload plus where to reopen the download. */
export interface FileUploadJobData extends FileUploadData {
  kind: 'file';
  locator: FileLocator;
}

/** A remote upload followed to its end. */
export interface RemoteFollowJobData {
  kind: 'remote';
  user: ChatUser;
  handle: MessageHandle;
  fileCode: string;
  url: string;
  /** Unix ms the follow began. */
  startedAt: number;
  /** Polls done so far. */
  attempt?: number;
  /** Consecutive failed polls. */
  errors: number;
  /** The card shown at the last edit, as JSON (edited only when it changes). */
  lastCard?: string;
  /** Unix ms of the last edit. */
  lastEditAt?: number;
  /** The language of the first card: every edit of it is written in it. */
  language?: string;
}

/** Data of a job on the `upload` queue. */
export type UploadJobData = FileUploadJobData | RemoteFollowJobData;

/** What `/media upload` asks for. */
export interface UploadRequest extends Omit<FileUploadData, 'name' | 'size' | 'mimeType'> {
  file: IncomingFile;
}

/** What `/media upload-url` asks for. */
export type RemoteFollowRequest = Pick<
  RemoteFollowJobData,
  'user' | 'handle' | 'fileCode' | 'url' | 'language'
>;

/** The upload service of the commands (`services.uploads`). */
export interface UploadService {
  /** Queues the upload (or runs it here); resolves `queued`, or `done`/`failed` when run here. */
  upload(request: UploadRequest): Promise<'queued' | 'done' | 'failed'>;
  /** Follows a remote upload on the queue, keeping its card up to date. */
  followRemote(request: RemoteFollowRequest): Promise<void>;
  /** Uploads and remote uploads still queued or running. */
  activeCount(): Promise<number>;
}

/** Finished jobs are kept a while for `deckhand status` and late duplicates. */
const KEEP = { removeOnComplete: { age: 3600 }, removeOnFail: { age: 86_400 } };

/** The BullMQ implementation. */
export class QueueUploadService implements UploadService {
  constructor(
    private readonly queue: Queue,
    private readonly files: FileResolvers,
    private readonly run: UploadRunDeps,
  ) {}

  async upload(request: UploadRequest): Promise<'queued' | 'done' | 'failed'> {
    const { file, ...rest } = request;
    const data: FileUploadData = {
      ...rest,
      name: file.name,
      size: file.size,
      ...(file.mimeType ? { mimeType: file.mimeType } : {}),
    };
    if (this.files.canReopen(file)) {
      const job: FileUploadJobData = { ...data, kind: 'file', locator: file.locator };
      await this.queue.add('file', job, { jobId: `upload-file-${randomUUID()}`, ...KEEP });
      return 'queued';
    }
    const uploaded = await runFileUpload(this.run, data, () => file.open());
    return uploaded ? 'done' : 'failed';
  }

  async followRemote(request: RemoteFollowRequest): Promise<void> {
    const data: RemoteFollowJobData = { ...request, kind: 'remote', startedAt: Date.now(), errors: 0 };
    const where = createHash('sha256')
      .update(`${request.fileCode}|${request.handle.conversationId}|${JSON.stringify(request.handle.ref)}`)
      .digest('hex')
      .slice(0, 32);
    await this.queue.add('remote', data, { jobId: `upload-remote-${where}`, ...KEEP });
  }

  async activeCount(): Promise<number> {
    const counts = await this.queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  }
}
