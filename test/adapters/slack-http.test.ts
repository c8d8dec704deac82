import { emitLogLines } from '@deckhand/sandbox/toolhost/jobs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import type { FakeMessage } from '../fakes/slack';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { useWithToolhostClient } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let bot: SlackBot;
let platform: ToolhostClientFactory;

useWithToolhostClient(startSlackBot, (started, client) => {
  bot = started;
  platform = client;
});
afterEach(() => {
  expect(bot.fake.violations).toEqual([]);
});

type Block = { type: string; text?: { text: string }; elements?: Record<string, unknown>[] };
const blocks = (attachments: Record<string, unknown>[]) => (attachments[0]?.blocks ?? []) as Block[];
const header = (attachments: Record<string, unknown>[]) => blocks(attachments)[0]?.text?.text ?? '';
const deployments = async () => (await platform.forTool('mytool').components.listDeployments()).length;

async function finished(channel: string): Promise<FakeMessage> {
  return waitFor(() => {
    const message = bot.fake.channelMessages(channel)[0];
    return message && header(message.attachments).includes(':white_check_mark:') ? message : undefined;
  }, 20_000);
}

describe('Slack slash commands over HTTP', () => {
  it('acks a signed /deploy mytool within 3 s, then posts one card and updates it in place to successful', async () => {
    // Slack is slow to take the card: the acknowledgement must not wait for it.
    bot.fake.script('chat.postMessage', { delayMs: 2000 });
    const delivery = await bot.driver.command(USERS.maintainer, 'C0DEPLOY', '/deploy mytool');
    expect(delivery.status).toBe(200);
    expect(delivery.ms).toBeLessThan(1500);
    expect(delivery.body).toBe('');
    const message = await finished('C0DEPLOY');
    expect(bot.fake.channelMessages('C0DEPLOY')).toHaveLength(1);
    const [first] = message.versions;
    expect(header(first?.attachments ?? [])).toBe(':hourglass_flowing_sand: Deploy mytool');
    expect(JSON.stringify(message.attachments)).toMatch(/\*Status\*\\nsuccessful/);
    expect(message.attachments[0]?.color).toBe('#2eb886');
    const updates = bot.fake.callsOf('chat.update');
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((u) => u.form.channel === 'C0DEPLOY' && u.form.ts === message.ts)).toBe(true);
    // The running deployment's Cancel button is destructive: Slack asks before sending the click.
    const cancel = blocks(first?.attachments ?? [])
      .flatMap((b) => b.elements ?? [])
      .find((e) => (e.text as { text: string }).text === 'Cancel');
    expect(cancel?.confirm).toBeDefined();
  });

  it('rejects a forged signature and a stale timestamp with 401, and changes nothing', async () => {
    const before = {
      calls: bot.fake.calls.length,
      responses: bot.fake.responses.length,
      deployments: await deployments(),
    };
    const fields = bot.driver.commandFields(USERS.maintainer, 'C0FORGED', '/deploy mytool');
    const forged = await bot.driver.sendCommand(fields, { signature: `v0=${'0'.repeat(64)}` });
    expect(forged.status).toBe(401);
    const stale = await bot.driver.sendCommand(
      { ...fields, trigger_id: bot.fake.issueTrigger() },
      { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 },
    );
    expect(stale.status).toBe(401);
    const unsigned = await fetch(bot.eventsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    expect(unsigned.status).toBe(401);
    // Positive control instead of a pause: a genuine command sent after the refused ones is
    // answered, so anything the refused ones had started would have happened by now too.
    await bot.driver.command(USERS.maintainer, 'C0GENUINE', '/help');
    await waitFor(
      () =>
        bot.fake.channelMessages('C0GENUINE').length > 0 ||
        bot.fake.ephemerals.some((e) => e.channel === 'C0GENUINE') ||
        bot.fake.responses.length > before.responses,
    );
    await bot.settled();
    expect(bot.fake.calls.slice(before.calls).filter((c) => c.form.channel === 'C0FORGED')).toEqual([]);
    expect(await deployments()).toBe(before.deployments);
    expect(bot.fake.channelMessages('C0FORGED')).toEqual([]);
  });

  it('waits out a 429 on chat.update and sends the same update again: nothing is lost', async () => {
    bot.fake.script('chat.update', { status: 429, retryAfter: 1 });
    await bot.driver.command(USERS.maintainer, 'C0LIMIT', '/deploy mytool');
    const message = await finished('C0LIMIT');
    const updates = bot.fake.callsOf('chat.update').filter((c) => c.form.channel === 'C0LIMIT');
    const limited = updates.findIndex((c) => c.status === 429);
    expect(limited).toBeGreaterThanOrEqual(0);
    const retry = updates[limited + 1];
    expect(retry?.status).toBe(200);
    expect(retry?.form).toEqual(updates[limited]?.form);
    expect((retry?.at ?? 0) - (updates[limited]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(JSON.stringify(message.attachments)).toMatch(/\*Status\*\\nsuccessful/);
    expect(message.versions.length).toBe(updates.filter((c) => c.status === 200).length + 1);
  });

  it("answers Slack's URL verification of /slack/events", async () => {
    const body = JSON.stringify({ token: 'x', challenge: 'challenge-123', type: 'url_verification' });
    const answer = await bot.driver.post(body, 'application/json');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ challenge: 'challenge-123' });
  });

  it('runs /deckhand <command> as that command, and writes help and usage in that form', async () => {
    await bot.driver.command(USERS.maintainer, 'C0NAMESPACE', '/deckhand jobs show mytool web');
    const card = await waitFor(() => bot.fake.channelMessages('C0NAMESPACE')[0]);
    expect(JSON.stringify(card.attachments)).toContain('Job web of mytool');
    await bot.driver.command(USERS.maintainer, 'C0NAMESPACE', '/deckhand');
    const help = await waitFor(() =>
      bot.fake.ephemerals.find(
        (e) => e.channel === 'C0NAMESPACE' && JSON.stringify(e.body).includes('Deckhand commands'),
      ),
    );
    expect(JSON.stringify(help.body)).toContain('/deckhand deploy');
    expect(JSON.stringify(help.body)).not.toMatch(/[^a-z]\/deploy\b/);
    await bot.driver.command(USERS.maintainer, 'C0NAMESPACE', '/deckhand deplyo mytool');
    const typo = await waitFor(() =>
      bot.fake.ephemerals.find(
        (e) => e.channel === 'C0NAMESPACE' && JSON.stringify(e.body).includes('Did you mean'),
      ),
    );
    expect(JSON.stringify(typo.body)).toContain('Did you mean /deckhand deploy?');
    await bot.settled();
  });

  it('runs a re-delivered slash command (same trigger) only once', async () => {
    const fields = bot.driver.commandFields(USERS.maintainer, 'C0TWICE', '/jobs show mytool web');
    const [a, b] = await Promise.all([bot.driver.sendCommand(fields), bot.driver.sendCommand(fields)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await waitFor(() => bot.fake.channelMessages('C0TWICE')[0]);
    await bot.settled();
    expect(bot.fake.channelMessages('C0TWICE')).toHaveLength(1);
  });

  it('answers privately (ephemeral) when a stranger may not deploy, and posts nothing in the channel', async () => {
    const before = await deployments();
    await bot.driver.command(USERS.stranger, 'C0NOPE', '/deploy mytool');
    const ephemeral = await waitFor(() => bot.fake.ephemerals.find((e) => e.channel === 'C0NOPE'));
    expect(ephemeral.user).toBe(USERS.stranger.id);
    expect(JSON.stringify(ephemeral.body)).toContain('Only maintainers of mytool');
    expect(JSON.stringify(ephemeral.body)).not.toMatch(/\bat .*\.ts:\d+/);
    expect(bot.fake.channelMessages('C0NOPE')).toEqual([]);
    expect(await deployments()).toBe(before);
  });

  it('posts through response_url where the bot is not in the channel, and updates it there', async () => {
    bot.fake.notInChannel.add('C0PRIVATE');
    await bot.driver.command(USERS.maintainer, 'C0PRIVATE', '/deploy mytool');
    const done = await waitFor(
      () =>
        bot.fake.responses.find(
          (r) => r.body.replace_original === true && JSON.stringify(r.body).includes(':white_check_mark:'),
        ),
      20_000,
    );
    const [first] = bot.fake.responses.filter((r) => r.id === done.id);
    expect(first?.body.response_type).toBe('in_channel');
    expect(bot.fake.channelMessages('C0PRIVATE')).toEqual([]);
  });

  it('shows a log line with <!channel> escaped in the recorded Block Kit', async () => {
    emitLogLines(bot.app.emulators.toolhost!.ctx, 'mytool', 'migrate-db', [
      'migration done <!channel> cc <@U0ADMIN> & see <https://evil.example/login|the dashboard> <!here>',
    ]);
    await bot.driver.command(USERS.maintainer, 'C0LOGS', '/logs mytool migrate-db');
    const card = await waitFor(() => bot.fake.channelMessages('C0LOGS')[0]);
    const sent = bot.fake.callsOf('chat.postMessage').find((c) => c.form.channel === 'C0LOGS');
    const raw = sent?.form.attachments ?? '';
    expect(raw).toContain('migration done &lt;!channel&gt; cc &lt;@U0ADMIN&gt; &amp; see');
    for (const mention of ['<!channel>', '<!here>', '<@U0ADMIN>', '<https://evil.example']) {
      expect(raw).not.toContain(mention);
    }
    const code = ((card.attachments[0]?.blocks ?? []) as { text?: { text: string } }[]).find((b) =>
      b.text?.text.includes('migration done'),
    );
    expect(code?.text?.text.startsWith('```')).toBe(true);
  });
});
