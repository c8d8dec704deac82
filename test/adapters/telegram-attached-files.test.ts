/**
 * A chat platform's file reaches /config set and /jobs load: a Telegram document sent with the
 * command as its caption is read, checked, confirmed with a Confirm button, and applied.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import { startTelegramDeckhand, type TelegramDeckhand } from '../fakes/telegram-harness';
import { useWithToolhostClient } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let deckhand: TelegramDeckhand;
let platform: ToolhostClientFactory;

useWithToolhostClient(startTelegramDeckhand, (started, client) => {
  deckhand = started;
  platform = client;
});

/** A file the maintainer sends in their private chat, with a command as its caption. */
interface SentFile {
  file: Parameters<TelegramDeckhand['fake']['sendFile']>[2];
  caption: string;
}

/**
 * Sends `sent` in the maintainer's private chat, waits for the question that contains `asked`, and
 * presses its Confirm once it also shows `shown`; resolves once the answer says `done`.
 */
async function sendAndConfirm(sent: SentFile, asked: string, shown: string, done: string): Promise<void> {
  const { fake, users } = deckhand;
  const chat = fake.privateChat(users.maintainer);
  fake.sendFile(users.maintainer, chat, sent.file, sent.caption);
  const ask = await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes(asked)));
  expect(ask.text).toContain(shown);
  fake.click(users.maintainer, ask, 'Confirm');
  await waitFor(() => fake.botMessages(chat.id).find((m) => m.text.includes(done)));
}

describe('Telegram documents for /config set and /jobs load', () => {
  it('saves a toolforge.yaml sent with /config set as caption, after the Confirm', async () => {
    const client = platform.forTool('mytool');
    const config = structuredClone(await client.components.getConfig());
    (Object.values(config.components)[0] as { run: { command: string } }).run.command = 'from-telegram';
    await sendAndConfirm(
      {
        file: {
          name: 'toolforge.yaml',
          content: Buffer.from(stringify(config)),
          mimeType: 'application/yaml',
        },
        caption: '/config set mytool',
      },
      'Save this components',
      'run.command: from-telegram',
      'Configuration of mytool saved',
    );
    expect(JSON.stringify(await client.components.getConfig())).toContain('from-telegram');
  });

  it('applies a jobs file sent with /jobs load as caption', async () => {
    const jobs = [
      // The seeded web service as it is (continuous, port 8000, published at /): unchanged.
      {
        name: 'web',
        command: 'web',
        image: 'tool-mytool/web:latest',
        continuous: true,
        port: 8000,
        publish: '/',
      },
      {
        name: 'daily-report',
        command: 'python3 report.py --daily',
        image: 'python3.11',
        schedule: '@daily',
        filelog: false,
      },
      { name: 'hourly', command: 'python3 hourly.py', image: 'python3.11', schedule: '@hourly' },
    ];
    await sendAndConfirm(
      { file: { name: 'jobs.yaml', content: Buffer.from(stringify(jobs)) }, caption: '/jobs load mytool' },
      'Apply this jobs file',
      'Plan: 1 to create, 0 to update, 1 to delete, 2 unchanged.',
      'Jobs file applied to mytool',
    );
    const names = (await platform.forTool('mytool').jobs.list()).map((j) => j.name).sort();
    expect(names).toEqual(['daily-report', 'hourly', 'web']);
  });
});
