import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildDiscordCommands } from '../../adapters/discord/manifest';
import type { AnyCommand } from '../../src/core/command';
import { buttonClick, modalSubmit, slashCommand } from '../fakes/discord';
import { type DiscordHarness, startDiscordHarness } from '../fakes/discord/harness';
import { debugOnFailure, embedOf, originalOf } from '../fakes/discord/inspect';
import { testCommand } from '../support/test-commands';
import { waitFor } from '../support/wait';

/** Test-only: a command that takes a file and reports what it read. */
const uploadCommand = {
  ...testCommand({
    name: 'upload',
    summary: 'Read an attached file (test)',
    args: z.object({ note: z.string().optional().describe('a note') }),
    async run({ invocation }) {
      const file = invocation.files?.[0];
      if (!file) return { text: 'no file', status: 'warning' };
      const stream = await file.open();
      expect(stream).toBeInstanceOf(Readable);
      let bytes = 0;
      let text = '';
      for await (const chunk of stream) {
        bytes += (chunk as Buffer).length;
        text += String(chunk);
      }
      return {
        title: `Read ${file.name}`,
        text: `${bytes} bytes (${file.size} announced): ${text.split('\n')[0]}`,
      };
    },
  }),
  files: { description: 'the file to read', required: true },
} as AnyCommand;

/** Test-only: asks for a form only after Deckhand has had to acknowledge. */
const slowFormCommand = testCommand({
  name: 'slowform',
  summary: 'Open a form late (test)',
  async run({ openForm }) {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await openForm({
      title: 'Slow form',
      fields: [{ name: 'answer', label: 'Your answer' }],
      command: 'echo',
      args: {},
    });
    return undefined;
  },
});

/** Test-only: what a form submits to. */
const echoCommand = testCommand({
  name: 'echo',
  summary: 'Echo an answer (test)',
  args: z.object({ answer: z.string() }),
  examples: ['/echo hi'],
  async run({ args }) {
    return { title: 'Echo', text: `echo: ${args.answer}` };
  },
});

let h: DiscordHarness;

beforeAll(async () => {
  h = await startDiscordHarness({
    prepare(app) {
      for (const extra of [uploadCommand, slowFormCommand, echoCommand])
        app.runner.registry.add(extra as never);
    },
  });
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
});

describe('Discord attachments and forms', () => {
  it('declares an attachment option for a command that takes files', () => {
    const upload = buildDiscordCommands(h.app.runner.registry).find((c) => c.name === 'upload') as
      | { options?: unknown[] }
      | undefined;
    expect(upload?.options).toEqual([
      { name: 'file', description: 'the file to read', type: 11, required: true },
      { name: 'note', description: 'a note', type: 3, required: false },
    ]);
  });

  it('exposes an attached file as a reference that streams from Discord when opened', async () => {
    debugOnFailure(h);
    const content = `first line of the file\n${'x'.repeat(100_000)}\n`;
    const url = h.fake.hostFile('notes.txt', content);
    h.fake.interact(
      slashCommand(h.place(), 'upload', {
        file: {
          attachment: {
            filename: 'notes.txt',
            url,
            size: Buffer.byteLength(content),
            contentType: 'text/plain',
          },
        },
      }),
    );
    const card = await waitFor(() =>
      h.fake.channelMessages().find((m) => m.via === 'bot' && embedOf(m).title === 'Read notes.txt'),
    );
    expect(embedOf(card).description).toBe('100024 bytes (100024 announced): first line of the file');
  });

  it('shows an Open form button when the form comes after the acknowledgement; its click opens the modal', async () => {
    debugOnFailure(h);
    const ask = h.fake.interact(slashCommand(h.place(), 'slowform', {}));
    const prompt = await waitFor(() => {
      const message = originalOf(h.fake, ask);
      return message?.components.length ? message : undefined;
    });
    expect(ask.callbacks[0]?.body).toEqual({ type: 5, data: { flags: 64 } });
    expect(prompt.flags).toBe(64);
    expect(prompt.content).toContain('Slow form');
    const formButton = (prompt.components[0] as { components: { custom_id: string; label: string }[] })
      .components[0];
    expect(formButton?.label).toBe('Open form');
    expect(formButton?.custom_id).toMatch(/^f:[0-9A-Za-z]+$/);

    const click = h.fake.interact(
      buttonClick(h.place(), formButton?.custom_id as string, { id: prompt.id, flags: 64 }),
    );
    const modal = await waitFor(() => click.callbacks[0]);
    expect(modal.body).toMatchObject({ type: 9, data: { title: 'Slow form' } });
    const customId = (modal.body.data as { custom_id: string }).custom_id;
    h.fake.interact(modalSubmit(h.place(), customId, { answer: 'forty-two' }));
    const echoed = await waitFor(() =>
      h.fake.channelMessages().find((m) => m.via === 'bot' && embedOf(m).description === 'echo: forty-two'),
    );
    expect(embedOf(echoed).title).toBe('Echo');
  });

  it('says a late form’s own words in the reader’s /language when their Discord client’s is one Deckhand does not speak', async () => {
    const place = h.place();
    const owner = `discord:${place.guildId}:${place.user.id}`;
    await h.app.services.languages?.setUser(owner, 'de');
    try {
      // A client in French, which Deckhand does not speak.
      const command = { ...slashCommand(place, 'slowform', {}), locale: 'fr' };
      const ask = h.fake.interact(command);
      const prompt = await waitFor(() => {
        const message = originalOf(h.fake, ask);
        return message?.components.length ? message : undefined;
      });
      expect(prompt.content).toContain('**Slow form** — klicke auf die Schaltfläche');
      const formButton = (prompt.components[0] as { components: { label: string }[] }).components[0];
      expect(formButton?.label).toBe('Formular öffnen');
    } finally {
      await h.app.services.languages?.setUser(owner, undefined);
    }
  });

  it('answers privately with a note when the bot may not post in the channel', async () => {
    debugOnFailure(h);
    h.fake.failNext('POST', /^\/channels\/\d+\/messages$/, 403, 50013, 'Missing Permissions');
    const ask = h.fake.interact(slashCommand(h.place(), 'jobs show', { tool: 'demo', job: 'api' }));
    const reply = await waitFor(() => {
      const message = originalOf(h.fake, ask);
      return message?.embeds.length ? message : undefined;
    });
    expect(reply.flags).toBe(64);
    expect(embedOf(reply).title).toBe('Job api of demo');
    expect(embedOf(reply).footer?.text).toContain(
      'Deckhand cannot post in this channel, so only you see this.',
    );
  });

  it('treats a DM with the bot as private: a secret value is accepted there and refused in a channel', async () => {
    debugOnFailure(h);
    const inChannel = h.fake.interact(
      slashCommand(h.place(), 'envvars set', { tool: 'demo', name: 'DM_SECRET', value: 'typed-in-public-1' }),
    );
    const refusal = await waitFor(() => {
      const message = originalOf(h.fake, inChannel);
      return message?.embeds.length ? message : undefined;
    });
    expect(refusal.flags).toBe(64);
    expect(embedOf(refusal).description).toContain('only works in a private conversation');

    h.fake.interact(
      slashCommand(h.place(h.adminId, { dm: true }), 'envvars set', {
        tool: 'demo',
        name: 'DM_SECRET',
        value: 'typed-in-a-dm-22',
      }),
    );
    const stored = await waitFor(async () => {
      const list = await h.app.services.toolhost.forTool('demo').envvars.list();
      return list.find((e) => e.name === 'DM_SECRET');
    });
    expect(stored.value).toBe('typed-in-a-dm-22');
  });
});
