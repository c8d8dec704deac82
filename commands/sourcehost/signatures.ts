/**
 * The names and argument schemas of the source-host commands that cards put on their buttons. A
 * card points a button at a command through its signature here, and the command is declared with
 * the same signature, so a card and the commands that show it never import each other.
 */
import { z } from 'zod';
import { translator } from '../../src/i18n/translate';

/** Whose migrations: `@me` (the linked account) or an organization. */
export const ownerArg = z
  .string()
  .regex(/^(@me|[A-Za-z0-9][A-Za-z0-9-]{0,38})$/, translator('en').t('source-owner-invalid'))
  .meta({ invalid: 'source-owner-invalid' })
  .describe('opt-owner');

/** A migration's id. */
export const migrationId = z.number().int().positive().describe('opt-id-source-migration-show');

/** `/source migration archive <owner> <id>`. */
export const migrationArchiveSignature = {
  name: 'source migration archive',
  args: z.object({ owner: ownerArg, id: migrationId }),
};
