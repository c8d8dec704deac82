import { z } from 'zod';
import { optionalUrl } from './config-schema';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The variables of link unfurls (docs/unfurls.md). */
export const UNFURL_ENV = {
  UNFURL_DOMAINS: {
    schema: z
      .string()
      .default('toolforge.org,toolsadmin.wikimedia.org')
      .transform((s) =>
        s
          .toLowerCase()
          .split(/[\s,]+/)
          .filter(Boolean),
      )
      .pipe(
        z
          .array(z.string().regex(DOMAIN, 'each entry must be a domain such as toolforge.org'))
          .max(5, 'a chat app may name at most 5 unfurl domains'),
      ),
    description:
      'Domains whose links a chat app that unfurls by domain asks to be shown to Deckhand (its app manifest, subdomains included): the tool pages, the admin pages, and your Phabricator when its links should unfurl too.',
  },
  PHABRICATOR_URL: {
    schema: optionalUrl,
    description:
      'Phabricator to read task titles from (`https://phabricator.wikimedia.org`): with it a task id such as `T123` is shown as its link and title. Without it task ids are not recognised (the sandbox emulates one).',
  },
  PHABRICATOR_TOKEN: {
    schema: z
      .string()
      .regex(/^(api|cli)-[a-z0-9]{28}$/, 'must be a Conduit API token (api-…)')
      .optional(),
    description:
      'Conduit API token of a Phabricator bot account that may see the tasks (public tasks need none on most installations).',
  },
} as const;
