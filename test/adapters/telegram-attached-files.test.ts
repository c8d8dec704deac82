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

describe('Telegram documents for /config set and /jobs load', () => {
  it('saves a toolforge.yaml sent with /config set as caption, after the Confirm', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.maintainer);
    const client = platform.forTool('mytool');
    const config = structuredClone(await client.components.getConfig());
    (Object.values(config.components)[0] as { run: { command: string } }).run.command = 'from-telegram';
    fake.sendFile(
      users.maintainer,
      chat,
      { name: 'toolforge.yaml', content: Buffer.from(stringify(config)), mimeType: 'application/yaml' },
      '/config set mytool',
    );
    const ask = await waitFor(() =>
      fake.botMessages(chat.id).find((m) => m.text.includes('Save this components')),
    );
    expect(ask.text).toContain('run.command: from-telegram');
    fake.click(users.maintainer, ask, 'Confirm');
    await waitFor(() =>
      fake.botMessages(chat.id).find((m) => m.text.includes('Configuration of mytool saved')),
    );
    expect(JSON.stringify(await client.components.getConfig())).toContain('from-telegram');
  });

  it('applies a jobs file sent with /jobs load as caption', async () => {
    const { fake, users } = deckhand;
    const chat = fake.privateChat(users.maintainer);
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
    fake.sendFile(
      users.maintainer,
      chat,
      { name: 'jobs.yaml', content: Buffer.from(stringify(jobs)) },
      '/jobs load mytool',
    );
    const ask = await waitFor(() =>
      fake.botMessages(chat.id).find((m) => m.text.includes('Apply this jobs file')),
    );
    expect(ask.text).toContain('Plan: 1 to create, 0 to update, 1 to delete, 2 unchanged.');
    fake.click(users.maintainer, ask, 'Confirm');
    await waitFor(() =>
      fake.botMessages(chat.id).find((m) => m.text.includes('Jobs file applied to mytool')),
    );
    const names = (await platform.forTool('mytool').jobs.list()).map((j) => j.name).sort();
    expect(names).toEqual(['daily-report', 'hourly', 'web']);
  });
});
