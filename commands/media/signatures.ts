/**
 * The names and argument schemas of the media commands that cards put on their buttons. A card
 * points a button at a command through its signature here, and the command is declared with the
 * same signature, so a card and the commands that show it never import each other.
 */
import { z } from 'zod';
import { fileCode, folderId, words } from './format';

/** What `/media uploads` can do with the remote upload queue. */
export const UPLOADS_ACTIONS = ['list', 'retry-errors', 'clear-errors', 'clear-all', 'delete'] as const;

/** `/media rename <code> [title]`. */
export const mediaRenameSignature = {
  name: 'media rename',
  args: z.object({ code: fileCode, title: words('opt-title-new', 255).optional() }),
};

/** `/media move <code> [folder]`. */
export const mediaMoveSignature = {
  name: 'media move',
  args: z.object({ code: fileCode, folder: folderId.optional() }),
};

/** `/media uploads [action] [code]`. */
export const mediaUploadsSignature = {
  name: 'media uploads',
  args: z.object({
    action: z.enum(UPLOADS_ACTIONS).default('list').describe('opt-action'),
    code: fileCode.optional().describe('opt-code'),
  }),
};
