import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { useWithToolhostClient } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let bot: SlackBot;
let platform: ToolhostClientFactory;
const logFile = join(mkdtempSync(join(tmpdir(), 'deckhand-slack-')), 'deckhand.log');
const logger = createLogger({ level: 'trace', file: logFile });

useWithToolhostClient(
  () => startSlackBot({ logger }),
  (started, client) => {
    bot = started;
    platform = client;
  },
);
afterEach(() => {
  expect(bot.fake.violations).toEqual([]);
});

const envvar = async (name: string) =>
  platform
    .forTool('mytool')
    .envvars.show(name)
    .then((e) => e.value)
    .catch(() => undefined);

async function logText(): Promise<string> {
  logger.flush();
  await new Promise((resolve) => setTimeout(resolve, 100));
  return readFileSync(logFile, 'utf8');
}

describe('Slack modals', () => {
  it('sets an envvar through a modal; the value never appears in any channel message or log', async () => {
    const secret = 'tok-9f8e7d6c5b4a3928';
    const delivery = await bot.driver.command(USERS.maintainer, 'C0ENV', '/envvars set mytool API_TOKEN');
    expect(delivery.status).toBe(200);
    const opened = await waitFor(() => bot.fake.views[0]);
    const command = bot.fake.calls.find((c) => c.method === 'views.open');
    expect(command?.form.trigger_id).toBe(opened.triggerId);
    const input = (opened.view.blocks as { type: string; hint?: unknown }[]).find((b) => b.type === 'input');
    expect(input?.hint).toBeDefined();
    const note = await waitFor(() => bot.fake.ephemerals.find((e) => e.channel === 'C0ENV'));
    expect(JSON.stringify(note.body)).toContain('Opened a form to set API_TOKEN of mytool');

    const submitted = await bot.driver.submit(USERS.maintainer, opened, { 'Value of API_TOKEN': secret });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toBe('');
    await waitFor(async () => (await envvar('API_TOKEN')) === secret);
    const result = await waitFor(() =>
      [
        ...bot.fake.channelMessages('C0ENV'),
        ...bot.fake.ephemerals.map((e) => ({ attachments: e.body.attachments })),
      ]
        .map((m) => JSON.stringify(m.attachments))
        .find((text) => text.includes('Set API_TOKEN of mytool')),
    );
    expect(result).not.toContain(secret);
    expect(bot.fake.everythingShown()).not.toContain(secret);
    expect(bot.fake.callsOf('chat.postMessage').map((c) => c.form)).not.toContainEqual(
      expect.objectContaining({ attachments: expect.stringContaining(secret) }),
    );
    const log = await logText();
    expect(log).toContain('"command":"envvars set"');
    expect(log).not.toContain(secret);

    // A re-delivered submission changes nothing more.
    await platform.forTool('mytool').envvars.set('API_TOKEN', 'rotated-elsewhere-1');
    await bot.driver.submit(USERS.maintainer, opened, { 'Value of API_TOKEN': secret });
    await bot.settled();
    expect(await envvar('API_TOKEN')).toBe('rotated-elsewhere-1');
  });

  it('refuses a value typed in a channel, and accepts it in the DM with the bot', async () => {
    await bot.driver.command(
      USERS.maintainer,
      'C0ENV2',
      '/envvars set mytool TYPED_VALUE typed-value-123456',
    );
    const refusal = await waitFor(() => bot.fake.ephemerals.find((e) => e.channel === 'C0ENV2'));
    expect(JSON.stringify(refusal.body)).toContain('only works in a private conversation');
    await bot.settled();
    expect(await envvar('TYPED_VALUE')).toBeUndefined();

    const dm = `D${USERS.maintainer.id.slice(1)}`;
    await bot.driver.command(USERS.maintainer, dm, '/envvars set mytool TYPED_VALUE typed-value-123456');
    await waitFor(async () => (await envvar('TYPED_VALUE')) === 'typed-value-123456');
    const reply = await waitFor(() => bot.fake.channelMessages(dm)[0]);
    expect(JSON.stringify(reply.attachments)).toContain('Set TYPED_VALUE of mytool');
    expect(bot.fake.everythingShown()).not.toContain('typed-value-123456');
  });

  it('answers an expired trigger with advice instead of a stack trace', async () => {
    bot.fake.script('views.open', { error: 'expired_trigger_id' });
    await bot.driver.command(USERS.maintainer, 'C0ENV3', '/envvars set mytool LATE_VALUE');
    const answer = await waitFor(() => bot.fake.ephemerals.find((e) => e.channel === 'C0ENV3'));
    expect(JSON.stringify(answer.body)).toContain('Run the command again');
    expect(JSON.stringify(answer.body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });
});
