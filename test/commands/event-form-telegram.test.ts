/** /event new on Telegram (the fake Bot API and the real grammY adapter): the form as a step-by-step private chat. */

import type { CalendarSandbox } from '@deckhand/sandbox/calendar';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../fakes/telegram';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let deckhand: TelegramDeckhand;

useStarted(startTelegramDeckhand, (started) => {
  deckhand = started;
});
afterEach(() => {
  deckhand.fake.assertClean();
});

async function prompt(chatId: number, text: string): Promise<FakeMessage> {
  return waitFor(() => deckhand.fake.botMessages(chatId).find((m) => m.text.includes(text)));
}

describe('/event new on Telegram', () => {
  it('asks each field in the private chat (Skip for optional ones) and creates the event', async () => {
    const { fake, users } = deckhand;
    const dm = fake.privateChat(users.admin);
    fake.sendText(users.admin, dm, '/start');
    await waitFor(() => fake.botMessages(dm.id).length > 0);
    // Opened in the private chat itself: its updates are handled in order, so the first answer
    // cannot overtake the form being stored.
    fake.sendText(users.admin, dm, '/event new');

    const title = await prompt(dm.id, 'Step 1 of 7: Title');
    expect(title.text).toContain('Venues: Community Room, Main Hall, Studio.');
    fake.sendText(users.admin, dm, 'Telegram social');
    await prompt(dm.id, 'Step 2 of 7: Starts');
    fake.sendText(users.admin, dm, '2026-12-16 19:00');
    await prompt(dm.id, 'Step 3 of 7: Ends');
    fake.sendText(users.admin, dm, '2026-12-16 22:00');
    await prompt(dm.id, 'Step 4 of 7: Venue');
    fake.sendText(users.admin, dm, 'Community Room');
    for (const [step, label] of [
      [5, 'Organizer'],
      [6, 'Category'],
      [7, 'Description'],
    ] as const) {
      const question = await prompt(dm.id, `Step ${step} of 7: ${label}`);
      fake.click(users.admin, question, 'Skip');
    }
    const card = await waitFor(() => fake.botMessages(dm.id).find((m) => m.text.includes('Event created.')));
    expect(card.text).toContain('Telegram social');
    expect(card.text).toContain('Wed 16 Dec 2026, 19:00–22:00 (Europe/Berlin)');
    const created = (deckhand.app.emulators.calendar as CalendarSandbox).state
      .postsOf('event')
      .find((e) => e.title === 'Telegram social');
    expect(created).toMatchObject({ venues: [11] });
  });
});
