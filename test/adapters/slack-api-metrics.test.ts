import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackMethodOf } from '../../adapters/slack/api-metrics';
import { createLogger, flushLogs } from '../../src/log';
import { ackDuration, chatApiCalls, chatApiErrors, chatApiRateLimited } from '../../src/metrics';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { counterValue, histogramCount } from '../support/metric-values';
import { waitFor } from '../support/wait';

let bot: SlackBot;
let logFile: string;

beforeAll(async () => {
  logFile = join(mkdtempSync(join(tmpdir(), 'deckhand-slack-metrics-')), 'deckhand.log');
  bot = await startSlackBot({ logger: createLogger({ level: 'debug', file: logFile }) });
});
afterAll(async () => {
  await bot?.close();
});

const slack = (method: string) => ({ platform: 'slack', method });

describe('Slack API metrics from the WebClient', () => {
  it('counts each call by method, a 429 as rate-limited, and times the ack; the call lines carry the invocation id', async () => {
    const before = {
      posts: await counterValue(chatApiCalls, slack('chat.postMessage')),
      updates: await counterValue(chatApiCalls, slack('chat.update')),
      limited: await counterValue(chatApiRateLimited, slack('chat.update')),
      acks: await histogramCount(ackDuration, { platform: 'slack' }),
    };
    bot.fake.script('chat.update', { status: 429, retryAfter: 1 });
    await bot.driver.command(USERS.maintainer, 'C0METRIC', '/deploy mytool');
    // Until the card shows the deployment finished, and every update Slack received is counted.
    await waitFor(
      () =>
        JSON.stringify(bot.fake.channelMessages('C0METRIC')[0]?.attachments ?? '').includes(
          ':white_check_mark:',
        ) || undefined,
      20_000,
    );
    await bot.settled();
    const updates = () => bot.fake.callsOf('chat.update').filter((c) => c.form.channel === 'C0METRIC').length;
    await waitFor(
      async () =>
        (await counterValue(chatApiCalls, slack('chat.update'))) === before.updates + updates() || undefined,
    );
    expect(await counterValue(chatApiCalls, slack('chat.postMessage'))).toBeGreaterThan(before.posts);
    // Every HTTP attempt is counted, the refused one included.
    expect(updates()).toBeGreaterThan(1);
    expect(await counterValue(chatApiCalls, slack('chat.update'))).toBe(before.updates + updates());
    expect(await counterValue(chatApiRateLimited, slack('chat.update'))).toBe(before.limited + 1);
    expect(await histogramCount(ackDuration, { platform: 'slack' })).toBe(before.acks + 1);

    await flushLogs();
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const command = lines.find((line) => line.msg === 'command' && line.command === 'deploy');
    expect(command?.invocation).toMatch(/^[0-9A-Z]{8}$/);
    const limited = lines.filter(
      (line) =>
        line.msg === 'chat api call' && line.method === 'chat.update' && line.result === 'rate-limited',
    );
    expect(limited).toHaveLength(1);
    expect(limited[0]?.invocation).toBe(command?.invocation);
  });

  it('counts an `ok: false` answer as an error of its method', async () => {
    const before = await counterValue(chatApiErrors, slack('chat.postMessage'));
    bot.fake.script('chat.postMessage', { error: 'not_in_channel' });
    await bot.driver.command(USERS.maintainer, 'C0ERROR', '/jobs list mytool');
    await waitFor(
      async () => (await counterValue(chatApiErrors, slack('chat.postMessage'))) > before || undefined,
    );
    expect(await counterValue(chatApiErrors, slack('chat.postMessage'))).toBe(before + 1);
  });

  it('labels calls by Web API method only (bounded), never by anything else in the URL', () => {
    expect(slackMethodOf('https://slack.com/api/chat.postMessage')).toBe('chat.postMessage');
    expect(slackMethodOf('http://127.0.0.1:4000/api/files.getUploadURLExternal')).toBe(
      'files.getUploadURLExternal',
    );
    expect(slackMethodOf('https://files.slack.com/upload/v1/ABC123')).toBe('other');
  });
});
