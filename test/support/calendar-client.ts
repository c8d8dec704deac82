/** The calendar client against a calendar emulator, for the client's own tests. */
import {
  type CalendarSandbox,
  SANDBOX_CALENDAR_USERS,
  startCalendarSandbox,
} from '@deckhand/sandbox/calendar';
import { afterAll, beforeAll } from 'vitest';
import { type CalendarClient, CalendarService } from '../../src/services/calendar';

/** What {@link useCalendarClient} started. */
export interface CalendarClientRig {
  sandbox: CalendarSandbox;
  /** The service on the emulator (no retries, 5 s timeout). */
  service: CalendarService;
  /** A client with the seeded editor's credentials. */
  editor: CalendarClient;
  /** A client without credentials. */
  anonymous: CalendarClient;
  /** The id of the seeded or created event with this title. */
  eventId(title: string): number;
}

/** Starts a calendar emulator and its clients before the file's tests, and closes them after. */
export function useCalendarClient(): CalendarClientRig {
  let sandbox: CalendarSandbox | undefined;
  let service: CalendarService | undefined;
  let editor: CalendarClient | undefined;
  let anonymous: CalendarClient | undefined;
  beforeAll(async () => {
    sandbox = await startCalendarSandbox();
    service = CalendarService.forSandbox(sandbox, { retries: 0, timeoutMs: 5_000 });
    editor = service.withCredentials(SANDBOX_CALENDAR_USERS.editor);
    anonymous = service.anonymous();
  });
  afterAll(async () => {
    await service?.close();
    await sandbox?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the calendar emulator has not started');
    return value;
  };
  return {
    get sandbox() {
      return started(sandbox);
    },
    get service() {
      return started(service);
    },
    get editor() {
      return started(editor);
    },
    get anonymous() {
      return started(anonymous);
    },
    eventId: (title) =>
      started(sandbox)
        .state.postsOf('event')
        .find((e) => e.title === title)?.id as number,
  };
}
