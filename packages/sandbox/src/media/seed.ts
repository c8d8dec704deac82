/**
 * The seeded account of the sandbox: a folder, a few files (one of them disabled after a copyright
 * report), so that `/media list`, `/media search`, `/media dmca` show something from the start.
 */
import type { MediaSandboxContext } from './context';
import { createFolder } from './folder-routes';
import { addFile, type MediaAccount, newAccount, serverTime } from './state';

/** The API key of the seeded sandbox account. */
export const SANDBOX_MEDIA_KEY = 'sandbox-media-key-0123456789';

/** Adds an account for `key` (empty) and returns it. */
export function addAccount(ctx: MediaSandboxContext, key: string, email?: string): MediaAccount {
  const account = newAccount(key, email);
  ctx.accounts.set(key, account);
  return account;
}

/** Seeds the demo account under `key`. */
export function seedMedia(ctx: MediaSandboxContext, key = SANDBOX_MEDIA_KEY): MediaAccount {
  const account = addAccount(ctx, key);
  account.balance = '1.25000';
  const trailers = createFolder(account, 'Trailers');
  createFolder(account, 'Talks');
  const day = 86_400_000;
  const now = Date.now();
  addFile(account, {
    title: 'Welcome to Deckhand',
    size: 15_728_640,
    views: 42,
    uploaded: serverTime(now - 3 * day),
    uploadedAt: now - 3 * day,
  });
  addFile(account, {
    title: 'Launch trailer',
    size: 52_428_800,
    views: 311,
    folderId: trailers.id,
    uploaded: serverTime(now - 2 * day),
    uploadedAt: now - 2 * day,
  });
  addFile(account, {
    title: 'Conference keynote',
    size: 734_003_200,
    views: 7,
    uploaded: serverTime(now - day),
    uploadedAt: now - day,
  });
  addFile(account, {
    title: 'Reported clip',
    size: 4_194_304,
    views: 0,
    uploaded: serverTime(now - 5 * day),
    uploadedAt: now - 5 * day,
    dmca: { reportedOn: serverTime(now - 4 * day), disabledOn: serverTime(now - 4 * day + 3600_000) },
  });
  return account;
}
