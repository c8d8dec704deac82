/**
 * What the media host emulator knows: one account per API key, its folders and files (uploaded
 * bytes live on disk under the sandbox's data directory), its remote-upload queue, copyright
 * reports, and the upload server addresses handed out. Routes read and change it; tests inspect it
 * through the sandbox's controls.
 */
import { randomBytes } from 'node:crypto';

/** A file in an account. */
export interface StoredFile {
  code: string;
  /** Second code used by the protected links. */
  protectedCode: string;
  title: string;
  size: number;
  /** Duration in seconds (derived from the size for uploaded bytes). */
  length: number;
  views: number;
  /** `YYYY-MM-DD HH:MM:SS`. */
  uploaded: string;
  /** Unix ms of the upload (for `created` filters). */
  uploadedAt: number;
  folderId: string;
  public: boolean;
  /** False while "encoding" right after an upload. */
  canPlay: boolean;
  lastView: string;
  /** Where the bytes are, for uploaded and transferred files. */
  path?: string;
  /** sha256 (hex) of the stored bytes. */
  sha256?: string;
  /** Set when the file was disabled after a copyright report. */
  dmca?: { reportedOn: string; disabledOn: string };
}

/** A folder. */
export interface StoredFolder {
  id: string;
  code: string;
  name: string;
  parentId: string;
}

/** A transfer in the remote-upload queue. */
export interface RemoteJob {
  code: string;
  url: string;
  /** `pending`, `working` or `error`; a finished job leaves the queue. */
  status: 'pending' | 'working' | 'error';
  bytesTotal: number;
  bytesDownloaded: number;
  folderId: string;
  title: string;
  created: string;
  /** Why it failed. */
  error?: string;
  /** Stops the running transfer (delete, clear). */
  abort?: () => void;
}

/** One account: everything a key sees. */
export interface MediaAccount {
  key: string;
  email: string;
  balance: string;
  premiumExpire: string;
  files: Map<string, StoredFile>;
  folders: Map<string, StoredFolder>;
  remote: Map<string, RemoteJob>;
  totalSlots: number;
  nextFolderId: number;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC), the API's time format. */
export function serverTime(at = Date.now()): string {
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

/** A file code: 12 lower-case letters and digits, like the host's. */
export function newCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** Creates an empty account for a key. */
export function newAccount(key: string, email = 'sandbox@example.org'): MediaAccount {
  return {
    key,
    email,
    balance: '0.00000',
    premiumExpire: '2030-01-01 00:00:00',
    files: new Map(),
    folders: new Map(),
    remote: new Map(),
    totalSlots: 100,
    nextFolderId: 101,
  };
}

/** Bytes per second of playback the emulator assumes, to derive a length from a size. */
const BYTES_PER_SECOND = 250_000;

/** Adds a file to an account and returns it. */
export function addFile(
  account: MediaAccount,
  file: Partial<StoredFile> & { title: string; size: number },
): StoredFile {
  const now = Date.now();
  const stored: StoredFile = {
    code: newCode(),
    protectedCode: newCode(),
    length: Math.max(1, Math.round(file.size / BYTES_PER_SECOND)),
    views: 0,
    uploaded: serverTime(now),
    uploadedAt: now,
    folderId: '0',
    public: true,
    canPlay: true,
    lastView: '',
    ...file,
  };
  account.files.set(stored.code, stored);
  return stored;
}

/** The sum of the sizes of an account's files. */
export function storageUsed(account: MediaAccount): number {
  let used = 0;
  for (const file of account.files.values()) used += file.size;
  return used;
}
