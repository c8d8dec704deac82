import type { CardField } from '../../src/core/reply';
import { applicationPasswordLink } from '../../src/services/calendar';
import { command } from './context';

/** `/calendar info`. */
export const calendarInfoCommand = command({
  name: 'calendar info',
  permission: 'read',
  async run({ services, invocation }) {
    const site = await services.calendar.site();
    const client = await services.calendar.forUser(invocation.user);
    const digest = await services.digests.get(invocation.conversationId);
    const fields: CardField[] = [
      {
        label: 'Site',
        value: site.name || site.url || services.calendar.siteUrl,
        url: site.url ?? services.calendar.siteUrl,
      },
      {
        label: 'Time zone',
        value: `${site.timezone} (dates are typed and shown in it unless --timezone says otherwise)`,
      },
      {
        label: 'Account',
        value: client.user
          ? `${client.user} (application password)`
          : `none: Deckhand can read but not write. Make an application password at ${applicationPasswordLink(services.calendar.siteUrl)} and set CALENDAR_USER and CALENDAR_APP_PASSWORD.`,
      },
      {
        label: 'Digest here',
        value: digest
          ? `${digest.every} at ${digest.at} (${digest.timezone})`
          : 'none (/calendar digest --daily)',
      },
    ];
    return { title: 'Event calendar', status: 'info', fields };
  },
});
