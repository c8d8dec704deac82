/** `/timezone [zone]`: the time zone this conversation's times are shown in (where the platform does not show each reader's own). */
import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { absoluteText, DEFAULT_TIME_ZONE, isTimeZone } from '../../src/core/times';
import { translator } from '../../src/i18n/translate';
import { commandsWith } from '../services';

const command = commandsWith<'timeZones'>();

/** `/timezone`, `/timezone Europe/Berlin`, `/timezone UTC`. */
export const timezoneCommand = command({
  name: 'timezone',
  args: z.object({ zone: z.string().max(64).optional().describe('opt-zone-timezone') }),
  positional: ['zone'],
  examples: ['/timezone', '/timezone Europe/Berlin', '/timezone UTC'],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation, here, say = translator(undefined) }) {
    const now = Date.now();
    if (args.zone === undefined) {
      const zone = (await services.timeZones.get(invocation.conversationId)) ?? DEFAULT_TIME_ZONE;
      return {
        text: say.t('timezone-shown', zone, absoluteText({ at: now }, zone, say.language)),
        status: 'info',
        audit: 'unchanged',
      };
    }
    const zone = args.zone.trim();
    if (!isTimeZone(zone)) {
      throw UsageError.inWords((say) => ({
        message: say.t('timezone-unknown', zone.slice(0, 64)),
        hint: say.t('timezone-unknown-hint'),
      }));
    }
    const canonical = zone.toUpperCase() === 'UTC' ? undefined : zone;
    await services.timeZones.set(invocation.conversationId, canonical);
    const shown = canonical ?? DEFAULT_TIME_ZONE;
    return {
      text: `${say.t('timezone-set', shown, absoluteText({ at: now }, shown, say.language))} ${here?.readerZonesOn ? ` ${say.t('timezone-set-reader-zones', here.readerZonesOn)}` : ''}`,
      status: 'success',
    };
  },
});
