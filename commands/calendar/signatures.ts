/**
 * The names and argument schemas of the calendar commands that cards put on their buttons. A card
 * points a button at a command through its signature here, and the command is declared with the
 * same signature, so a card and the commands that show it never import each other.
 */
import { z } from 'zod';
import { eventRef } from './calendar-args';

/** `/event cancel <ref>`. */
export const eventCancelSignature = { name: 'event cancel', args: z.object({ ref: eventRef }) };

/** `/event edit <ref>`. */
export const eventEditSignature = { name: 'event edit', args: z.object({ ref: eventRef }) };
