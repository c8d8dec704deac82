/** The context of the calendar commands: the part of the services they use. */
import type { z } from 'zod';
import type { CommandDeclaration, CommandDefinition, NoArgs } from '../../src/core/command';
import type { DraftCard } from '../../src/core/reply';
import { type AppServices, commandsWith } from '../services';

type Used = 'calendar' | 'digests';

/**
 * What the calendar commands use: the calendar client per user, and the digest schedule.
 */
export type CalendarServices = Pick<AppServices, Used>;

const plain = commandsWith<Used>();

/** The card with the notices under it (a refused password that reads went without). */
function withNotices(card: DraftCard, notices: readonly string[]): DraftCard {
  const note = notices.map((n) => `⚠ ${n}`).join('\n');
  return { ...card, footer: card.footer ? `${card.footer}\n${note}` : note };
}

/**
 * `defineCommand` for this group: its commands see {@link CalendarServices} only. When the site
 * refuses the stored application password, reads go without it and the reply says it needs replacing.
 */
export function command<Schema extends z.ZodObject = NoArgs>(
  declaration: CommandDeclaration<Schema, CalendarServices>,
): CommandDefinition<Schema, CalendarServices> {
  return plain({
    ...declaration,
    async run(ctx) {
      const notices: string[] = [];
      const calendar = ctx.services.calendar.noticing((notice) => {
        if (!notices.includes(notice)) notices.push(notice);
      });
      const result = await declaration.run({ ...ctx, services: { ...ctx.services, calendar } });
      return result && notices.length > 0 ? withNotices(result, notices) : result;
    },
  });
}
