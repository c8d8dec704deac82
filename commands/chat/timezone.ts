/** `/timezone [zone]`: the time zone this conversation's times are shown in (where the platform does not show each reader's own). */
import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { absoluteText, DEFAULT_TIME_ZONE, isTimeZone } from '../../src/core/times';
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
  async run({ args, services, invocation, here }) {
    const now = Date.now();
    if (args.zone === undefined) {
      const zone = (await services.timeZones.get(invocation.conversationId)) ?? DEFAULT_TIME_ZONE;
      return {
        text: `Times here are shown in ${zone} (now ${absoluteText({ at: now }, zone)}). Change it with /timezone <zone>, e.g. /timezone Europe/Berlin.`,
        status: 'info',
        audit: 'unchanged',
      };
    }
    const zone = args.zone.trim();
    if (!isTimeZone(zone)) {
      throw new UsageError(`${zone.slice(0, 64)} is not a time zone Deckhand knows.`, {
        hint: 'Use a name from the tz database, like Europe/Berlin, America/New_York or UTC. Nothing was changed.',
      });
    }
    const canonical = zone.toUpperCase() === 'UTC' ? undefined : zone;
    await services.timeZones.set(invocation.conversationId, canonical);
    const shown = canonical ?? DEFAULT_TIME_ZONE;
    return {
      text: `Times in this conversation are now shown in ${shown} (now ${absoluteText({ at: now }, shown)}). ${here?.readerZonesOn ? ` On ${here.readerZonesOn} each reader still sees their own zone.` : ''}`,
      status: 'success',
    };
  },
});
