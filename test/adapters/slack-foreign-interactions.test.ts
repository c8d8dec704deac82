/**
 * Interactions that are not Deckhand's, replayed as Slack sends them (fixtures from Slack's Bolt for
 * Python, see fixtures/slack-bolt-python-payloads.ts): acknowledged with an empty 200 and logged at
 * debug level only — no 404 after three seconds, no error line — over HTTP and over Socket Mode.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';
import {
  globalShortcut,
  gridBlockAction,
  gridViewSubmission,
  messageShortcut,
  orgInstallBlockAction,
  orgInstallViewClosed,
  orgInstallViewSubmission,
  socketModeShortcut,
} from './fixtures/slack-bolt-python-payloads';

/** Every log line of a bot, parsed. */
function recordingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const FOREIGN = {
  'a block action of another app (Enterprise Grid workspace)': gridBlockAction,
  "an org-wide install's block action (team null)": orgInstallBlockAction,
  'a submitted modal of other code (Enterprise Grid workspace)': gridViewSubmission,
  "an org-wide install's modal submission (team null)": orgInstallViewSubmission,
  "an org-wide install's closed modal": orgInstallViewClosed,
  'a global shortcut': globalShortcut,
  'a message shortcut': messageShortcut,
};

const IGNORED = "Slack: acknowledged an interaction that is not Deckhand's";

describe('Slack interactions that are not Deckhand’s, over HTTP', () => {
  const log = recordingLogger();
  let bot: SlackBot;
  useStarted(
    () => startSlackBot({ logger: log.logger }),
    (started) => {
      bot = started;
    },
  );
  afterEach(() => {
    expect(bot.fake.violations).toEqual([]);
  });

  for (const [what, payload] of Object.entries(FOREIGN)) {
    it(`acknowledges ${what} with an empty 200, logs it at debug level only, and runs nothing`, async () => {
      const before = { lines: log.lines.length, calls: bot.fake.calls.length };
      const delivery = await bot.driver.interact(payload as Record<string, unknown>);
      expect(delivery.status).toBe(200);
      expect(delivery.body).toBe('');
      const lines = log.lines.slice(before.lines);
      expect(lines.filter((l) => l.msg === IGNORED && l.level === 20)).toHaveLength(1);
      expect(lines.filter((l) => l.level >= 40)).toEqual([]);
      await bot.settled();
      expect(bot.fake.calls.slice(before.calls)).toEqual([]);
    });
  }

  it("still runs Deckhand's own button in an org-wide install's payload (team null), as the person who clicked", async () => {
    await bot.driver.command(USERS.admin, 'C0ORGWIDE', '/jobs show mytool web');
    const card = await waitFor(() => bot.fake.channelMessages('C0ORGWIDE')[0]);
    const click = bot.driver.clickPayload(USERS.stranger, card, 'Restart');
    const { team, enterprise, is_enterprise_install } = orgInstallBlockAction;
    const before = log.lines.length;
    const delivery = await bot.driver.interact({ ...click, team, enterprise, is_enterprise_install });
    expect(delivery.status).toBe(200);
    const refusal = await waitFor(() => bot.fake.ephemerals.find((e) => e.channel === 'C0ORGWIDE'));
    expect(refusal.user).toBe(USERS.stranger.id);
    expect(JSON.stringify(refusal.body)).toContain('Only maintainers of mytool');
    expect(log.lines.slice(before).filter((l) => l.msg === IGNORED)).toEqual([]);
  });
});

describe('Slack interactions that are not Deckhand’s, over Socket Mode', () => {
  const log = recordingLogger();
  let bot: SlackBot;
  useStarted(
    () => startSlackBot({ mode: 'socket', logger: log.logger }),
    (started) => {
      bot = started;
    },
  );

  it('acknowledges the envelope of a global shortcut and of a foreign modal; nothing is logged above debug', async () => {
    const before = log.lines.length;
    for (const payload of [socketModeShortcut, gridViewSubmission]) {
      const ack = await bot.driver.interact(payload);
      expect(ack.status).toBe(200);
    }
    const lines = log.lines.slice(before);
    expect(lines.filter((l) => l.msg === IGNORED)).toHaveLength(2);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });
});
