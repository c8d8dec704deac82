import type { CardField } from '../../src/core/reply';
import { translator } from '../../src/i18n/translate';
import { applicationPasswordLink } from '../../src/services/calendar';
import { command } from './context';

/** `/calendar info`. */
export const calendarInfoCommand = command({
  name: 'calendar info',
  permission: 'read',
  async run({ services, invocation, say = translator('en') }) {
    const site = await services.calendar.site();
    const client = await services.calendar.forUser(invocation.user);
    const digest = await services.digests.get(invocation.conversationId);
    const fields: CardField[] = [
      {
        label: say.t('calendar-info-site'),
        value: site.name || site.url || services.calendar.siteUrl,
        url: site.url ?? services.calendar.siteUrl,
      },
      {
        label: say.t('calendar-info-timezone'),
        value: say.t('calendar-info-timezone-value', site.timezone),
      },
      {
        label: say.t('calendar-info-account'),
        value: client.user
          ? say.t('calendar-info-account-user', client.user)
          : say.t('calendar-info-account-none', applicationPasswordLink(services.calendar.siteUrl)),
      },
      {
        label: say.t('calendar-info-digest'),
        value: digest
          ? digest.every === 'daily'
            ? say.t('calendar-info-digest-daily', digest.at, digest.timezone)
            : say.t('calendar-info-digest-weekly', digest.at, digest.timezone)
          : say.t('calendar-info-digest-none'),
      },
    ];
    return { title: say.t('calendar-info-title'), status: 'info', fields };
  },
});
