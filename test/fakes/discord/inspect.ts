/** Helpers for tests that look at what the bot sent to the fake Discord. */
import { onTestFailed } from 'vitest';
import type { DiscordHarness } from './harness';
import type { FakeDiscord } from './server';
import type { FakeInteraction, FakeMessage } from './store';

/** A button as the bot rendered it. */
export interface SentButton {
  type: number;
  custom_id?: string;
  label?: string;
  style?: number;
  url?: string;
}

/** The parts of an embed the tests read. */
export interface SentEmbed {
  title?: string;
  description?: string;
  color?: number;
  fields?: { name: string; value: string }[];
  footer?: { text: string };
}

/** The first embed of a message. */
export function embedOf(message: FakeMessage): SentEmbed {
  return (message.embeds[0] ?? {}) as SentEmbed;
}

/** Every button of a message. */
export function buttons(message: FakeMessage): SentButton[] {
  return message.components.flatMap((row) => (row as { components: SentButton[] }).components);
}

/** The custom_id of the button labelled `label`. */
export function button(message: FakeMessage, label: string): string {
  const found = buttons(message).find((b) => b.label === label);
  if (!found?.custom_id) throw new Error(`no button ${label} on ${JSON.stringify(message.components)}`);
  return found.custom_id;
}

/** Live messages the bot posted in the channel with its token, oldest first. */
export function botMessages(fake: FakeDiscord): FakeMessage[] {
  return fake.channelMessages().filter((m) => m.via === 'bot');
}

/** The interaction's `@original` message, once it has embeds or components. */
export function originalOf(fake: FakeDiscord, interaction: FakeInteraction): FakeMessage | undefined {
  const message = interaction.original ? fake.store.messages.get(interaction.original) : undefined;
  return message && (message.embeds.length || message.components.length) ? message : undefined;
}

/** On failure, prints the requests the fake saw and the bot's warnings and errors. */
export function debugOnFailure(h: DiscordHarness): void {
  onTestFailed(() => {
    const requests = h.fake.requests.map(
      (r) => `${r.method} ${r.path} ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`,
    );
    console.log(requests.join('\n'));
    console.log(h.logs.filter((line) => /"level":(40|50)/.test(line)).join(''));
  });
}
