/**
 * Times on cards: one value in the card model, drawn by each renderer in its platform's way — a Slack
 * date token and a Discord timestamp (each reader's own zone), text in the conversation's zone on
 * Telegram and in the terminal, with "ago" only on a card that is still being redrawn.
 */
import { describe, expect, it } from 'vitest';
import { renderCard as renderDiscord } from '../../adapters/discord/render';
import { PLAIN, renderCardText } from '../../adapters/shell/render';
import { renderCard as renderSlack } from '../../adapters/slack/render';
import { renderCard as renderTelegram } from '../../adapters/telegram/render';
import type { Card } from '../../src/core/reply';
import { readableTimes, relativeText, timeText } from '../../src/core/times';

const AT = Date.UTC(2026, 10, 23, 17, 55, 12, 582);
const SECONDS = Math.floor(AT / 1000);

function deployCard(status: Card['status'], extra: Partial<Card> = {}): Card {
  return {
    title: 'Deploy mytool',
    status,
    fields: [
      { label: 'Status', value: 'successful', inline: true },
      { label: 'Started', value: '', time: { at: AT, relative: true }, inline: true },
      { label: 'Latest build', value: 'ok · b-1', time: { at: AT } },
    ],
    footer: 'deployment 20261123-175512-abc',
    ...extra,
  };
}

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('times on Slack', () => {
  it('are date tokens with a fallback in the conversation’s zone, unescaped', () => {
    const message = renderSlack(deployCard('success', { timeZone: 'Europe/Berlin' }));
    const json = JSON.stringify(message.attachments);
    expect(json).toContain(
      `<!date^${SECONDS}^{date_short_pretty} {time} ({ago})|Mon 23 Nov 2026, 18:55 (Europe/Berlin)>`,
    );
    expect(json).toContain(`ok · b-1 · <!date^${SECONDS}^{date_short_pretty} {time}|`);
    expect(json).not.toContain('&lt;!date');
    expect(json).not.toMatch(ISO);
  });

  it('puts a footer time in the context block as a token', () => {
    const message = renderSlack({ text: 'x', footer: 'migration 7 · created', footerTime: { at: AT } });
    expect(JSON.stringify(message.attachments)).toContain(`migration 7 · created · <!date^${SECONDS}^`);
  });

  it('cannot be forged by untrusted text: a token typed in a value stays escaped', () => {
    const message = renderSlack({ fields: [{ label: 'Note', value: `<!date^1^{time}|x> <!channel>` }] });
    const json = JSON.stringify(message.attachments);
    expect(json).toContain('&lt;!date^1^{time}|x&gt; &lt;!channel&gt;');
  });
});

describe('times on Discord', () => {
  it('are timestamps (full and relative) in fields, text in the footer', () => {
    const { body } = renderDiscord(deployCard('success', { footerTime: { at: AT } }));
    const fields = body.embeds[0]?.fields ?? [];
    expect(fields.find((f) => f.name === 'Started')?.value).toBe(`<t:${SECONDS}:f> (<t:${SECONDS}:R>)`);
    expect(fields.find((f) => f.name === 'Latest build')?.value).toBe(`ok · b-1 · <t:${SECONDS}:f>`);
    expect(body.embeds[0]?.footer?.text).toBe('deployment 20261123-175512-abc · Mon 23 Nov 2026, 17:55 UTC');
    expect(JSON.stringify(body)).not.toMatch(ISO);
  });
});

describe('times on Telegram and in the terminal', () => {
  it('are text in the conversation’s zone; a finished card has no “ago” that would freeze', () => {
    const telegram = renderTelegram(deployCard('success', { timeZone: 'America/New_York' })).parts.join('\n');
    expect(telegram).toContain('<b>Started:</b> Mon 23 Nov 2026, 12:55 (America/New_York)');
    expect(telegram).not.toMatch(/ago|just now/);
    const shell = renderCardText(deployCard('success'), PLAIN);
    expect(shell).toMatch(/Started\s+Mon 23 Nov 2026, 17:55 UTC/);
    expect(shell).toMatch(/Latest build\s+ok · b-1 · Mon 23 Nov 2026, 17:55 UTC/);
    expect(shell).not.toMatch(/ago|just now/);
  });

  it('say how long ago, computed when drawn, on a card still in progress', () => {
    const recent = {
      ...deployCard('progress'),
      fields: [{ label: 'Started', value: '', time: { at: Date.now() - 180_000, relative: true } }],
    };
    expect(renderCardText(recent, PLAIN)).toMatch(/Started\s+.* UTC \(3 minutes ago\)/);
    expect(renderTelegram(recent).parts[0]).toContain('(3 minutes ago)');
  });
});

describe('the time formatter', () => {
  it('writes one shape, no seconds, in any zone; UTC when the zone is unknown', () => {
    expect(timeText({ at: AT }, undefined)).toBe('Mon 23 Nov 2026, 17:55 UTC');
    expect(timeText({ at: AT }, 'Asia/Tokyo')).toBe('Tue 24 Nov 2026, 02:55 (Asia/Tokyo)');
    expect(timeText({ at: AT }, 'Not/AZone')).toBe('Mon 23 Nov 2026, 17:55 UTC');
    expect(timeText({ at: AT, dateOnly: true }, 'UTC')).toBe('Mon 23 Nov 2026');
    expect(relativeText({ at: AT - 10_000 }, AT)).toBe('just now');
    expect(relativeText({ at: AT + 2 * 3_600_000 }, AT)).toBe('in 2 hours');
  });

  it('rewrites a service’s ISO timestamps (the platform’s “Finished at …”)', () => {
    expect(readableTimes('Finished at 2026-11-23T17:55:12.582Z')).toBe(
      'Finished at Mon 23 Nov 2026, 17:55 UTC',
    );
    expect(readableTimes("Finished at '2026-11-23T17:55:12+01:00'. Exit code '0'.")).toBe(
      "Finished at 'Mon 23 Nov 2026, 16:55 UTC'. Exit code '0'.",
    );
    expect(readableTimes('no time here 2026-11-23')).toBe('no time here 2026-11-23');
  });
});
