import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import type { LinkRecogniser } from '../../src/core/unfurls';
import { t, translator } from '../../src/i18n/translate';
import { PhabricatorClient } from '../../src/services/phabricator';
import { command } from './context';

const taskId = z
  .string()
  .regex(/^[Tt]?\d{1,9}$/, t('en', 'phab-task-number-invalid'))
  .meta({ invalid: 'phab-task-number-invalid' })
  .transform((id) => Number(id.replace(/^[Tt]/, '')))
  .describe('opt-id-task');

/** `/task T123`: a Phabricator task's link, title and status. */
export const taskCommand = command({
  name: 'task',
  args: z.object({ id: taskId }),
  positional: ['id'],
  examples: ['/task T123'],
  permission: 'read',
  async run({ args, services, say = translator('en') }) {
    const { PHABRICATOR_URL: url, PHABRICATOR_TOKEN: token } = services.config;
    if (!url) {
      throw UsageError.inWords((say) => ({
        message: say.t('phab-not-connected'),
        hint: say.t('phab-not-connected-hint'),
      }));
    }
    const task = await new PhabricatorClient({ url, token }).task(args.id);
    return {
      title: `T${task.id}: ${task.title}`,
      status: task.open ? 'info' : 'success',
      fields: [{ label: say.t('phab-task-status'), value: task.status }],
      links: [{ label: say.t('phab-task-open', `T${task.id}`), url: task.url }],
    };
  },
});

/** A task id (`T123`) standing alone, or a task's address on any Phabricator (`…/T123`). */
const TASK = /(?<![\w/.-])T(\d{1,9})(?![\w-])|\bhttps?:\/\/phabricator\.[\w.-]+\/T(\d{1,9})(?![\w-])/g;

/** Phabricator task ids and task addresses in a message. */
export const phabricatorLinks: LinkRecogniser = (text) =>
  [...text.matchAll(TASK)].map((match) => {
    const id = Number(match[1] ?? match[2]);
    return { text: match[0], subject: `task:${id}`, line: `/task T${id}` };
  });
