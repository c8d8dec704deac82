/** The `/media` group, in the order help lists it. */
import type { AnyCommand } from '../../src/core/command';
import type { AppServices } from '../services';
import { mediaAccountCommand, mediaDmcaCommand, mediaStatsCommand } from './account';
import { mediaFolderCreateCommand, mediaFolderListCommand, mediaFolderRenameCommand } from './folders';
import {
  mediaCheckCommand,
  mediaCloneCommand,
  mediaImagesCommand,
  mediaInfoCommand,
  mediaListCommand,
  mediaMoveCommand,
  mediaRenameCommand,
  mediaSearchCommand,
} from './library';
import { mediaPlayerCommand } from './player';
import { mediaUploadCommand, mediaUploadsCommand, mediaUploadUrlCommand } from './upload';

/** Every media command. */
export const MEDIA_COMMANDS: readonly AnyCommand<AppServices>[] = [
  mediaUploadCommand as AnyCommand<AppServices>,
  mediaUploadUrlCommand,
  mediaUploadsCommand,
  mediaListCommand,
  mediaInfoCommand,
  mediaCheckCommand,
  mediaImagesCommand,
  mediaRenameCommand,
  mediaMoveCommand,
  mediaCloneCommand,
  mediaSearchCommand,
  mediaFolderCreateCommand,
  mediaFolderRenameCommand,
  mediaFolderListCommand,
  mediaPlayerCommand,
  mediaAccountCommand,
  mediaStatsCommand,
  mediaDmcaCommand,
];

export { mediaUploadView } from './cards';
