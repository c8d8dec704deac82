import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS, renderCard, STATUS_COLOURS } from '../../adapters/discord/render';
import type { Card } from '../../src/core/reply';
import { validateDiscordRequest } from '../fakes/discord/spec';

/** What Discord would say about posting this body (spec + documented limits). */
function violationsOf(card: Card) {
  const { body } = renderCard(card);
  return validateDiscordRequest({
    method: 'POST',
    path: '/api/v10/channels/123456789012345678/messages',
    query: {},
    headers: {},
    body,
  });
}

function embedTotal(card: Card): number {
  const embed = renderCard(card).body.embeds[0];
  return (
    (embed?.title?.length ?? 0) +
    (embed?.description?.length ?? 0) +
    (embed?.footer?.text.length ?? 0) +
    (embed?.author?.name.length ?? 0) +
    (embed?.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

describe('Discord rendering of cards', () => {
  it('colours the embed by status and never allows mentions', () => {
    for (const status of ['info', 'progress', 'success', 'warning', 'danger'] as const) {
      const { body } = renderCard({ title: 'x', status });
      expect(body.embeds[0]?.color).toBe(STATUS_COLOURS[status]);
      expect(body.allowed_mentions).toEqual({ parse: [] });
    }
  });

  it('escapes markdown and breaks mentions in untrusted text, but keeps code blocks verbatim', () => {
    const { body } = renderCard({
      title: '**bold** @here',
      text: 'ping @everyone <@123456> <@&42> <#7> [x](https://evil.example) `tick`',
      fields: [{ label: '_f_', value: '@everyone' }],
      code: { text: 'line with @everyone and ``` fence' },
    });
    const embed = body.embeds[0];
    expect(embed?.title).toBe('\\*\\*bold\\*\\* @\u200bhere');
    expect(embed?.description).toContain('@\u200beveryone');
    expect(embed?.description).toContain('<\u200b@123456>');
    expect(embed?.description).toContain('<\u200b@&42>');
    expect(embed?.description).toContain('<\u200b#7>');
    expect(embed?.description).toContain('\\[x\\](https://evil.example)');
    expect(embed?.description).toContain('\\`tick\\`');
    expect(embed?.description).toMatch(/```\nline with @everyone and `\u200b`\u200b` fence\n```$/);
    expect(embed?.fields?.[0]).toEqual({ name: '\\_f\\_', value: '@\u200beveryone' });
  });

  it('keeps the tail of a long log in the embed and attaches the whole log as a file', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `2026-11-22T10:00:00Z web-1 line ${i}`);
    const card: Card = { title: 'Logs of web', code: { text: lines.join('\n') }, footer: '5000 lines' };
    const { body, files } = renderCard(card);
    const embed = body.embeds[0];
    expect(embed?.description?.length).toBeLessThanOrEqual(LIMITS.description);
    expect(embed?.description).toContain('line 4999');
    expect(embed?.description).not.toContain('line 10\n');
    expect(files.map((f) => f.name)).toEqual(['logs-of-web.txt']);
    expect(String(files[0]?.data)).toBe(lines.join('\n'));
    expect(body.attachments).toEqual([{ id: '0', filename: 'logs-of-web.txt' }]);
    expect(embed?.footer?.text).toBe('5000 lines · Full output attached as logs-of-web.txt.');
    expect(await violationsOf(card)).toEqual([]);
  });

  it('cuts long text and fields, stays under 6,000 characters, and attaches the full text', async () => {
    const card: Card = {
      title: 'T'.repeat(400),
      text: 'word '.repeat(2000),
      fields: Array.from({ length: 30 }, (_, i) => ({ label: `field ${i}`, value: 'v'.repeat(1500) })),
      footer: 'f'.repeat(3000),
    };
    const { body, files } = renderCard(card);
    const embed = body.embeds[0];
    expect(embed?.title?.length).toBe(LIMITS.title);
    expect(embed?.fields?.length).toBeLessThanOrEqual(LIMITS.fields);
    for (const field of embed?.fields ?? [])
      expect(field.value.length).toBeLessThanOrEqual(LIMITS.fieldValue);
    expect(embedTotal(card)).toBeLessThanOrEqual(LIMITS.embedTotal);
    const full = files.find((f) => f.name === 'message.txt');
    expect(String(full?.data)).toContain(`field 29: ${'v'.repeat(1500)}`);
    expect(await violationsOf(card)).toEqual([]);
  });

  it('puts buttons in rows of five (custom_id = the short action id), at most five rows', async () => {
    const buttons = Array.from({ length: 12 }, (_, i) => ({ label: `b${i}`, actionId: `id${i}` }));
    const { body } = renderCard({
      text: 'x',
      buttons,
      links: [{ label: 'docs', url: 'https://example.org' }],
    });
    expect(body.components.map((row) => row.components.length)).toEqual([5, 5, 3]);
    expect(body.components[0]?.components[0]).toMatchObject({
      type: 2,
      custom_id: 'id0',
      label: 'b0',
      style: 2,
    });
    expect(body.components[2]?.components[2]).toMatchObject({ style: 5, url: 'https://example.org' });

    const many = Array.from({ length: 30 }, (_, i) => ({ label: `b${i}`, actionId: `id${i}` }));
    const crowded = renderCard({ text: 'x', buttons: many });
    expect(crowded.body.components).toHaveLength(5);
    expect(crowded.body.embeds[0]?.footer?.text).toContain('5 more buttons are not shown.');
    expect(await violationsOf({ text: 'x', buttons: many })).toEqual([]);
  });

  it('maps button styles and attaches card attachments', () => {
    const { body, files } = renderCard({
      text: 'x',
      buttons: [
        { label: 'Go', actionId: 'a', style: 'primary' },
        { label: 'Delete', actionId: 'b', style: 'danger' },
      ],
      attachments: [{ filename: 'transcript.log', content: 'hello' }],
    });
    expect(body.components[0]?.components.map((b) => ('style' in b ? b.style : undefined))).toEqual([1, 4]);
    expect(files).toEqual([
      { name: 'transcript.log', data: Buffer.from('hello'), contentType: 'text/plain; charset=utf-8' },
    ]);
  });

  it('renders any card into a message Discord accepts', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 3000 });
    const cardArbitrary = fc.record(
      {
        title: fc.string({ maxLength: 400 }),
        text,
        status: fc.constantFrom('info', 'progress', 'success', 'warning', 'danger' as const),
        fields: fc.array(
          fc.record({
            label: fc.string({ maxLength: 300 }),
            value: fc.string({ maxLength: 1500 }),
            inline: fc.boolean(),
          }),
          { maxLength: 30 },
        ),
        code: fc.record({
          text: fc.string({ maxLength: 9000 }),
          language: fc.constantFrom(undefined, 'log', 'yaml'),
        }),
        footer: fc.string({ maxLength: 2500 }),
        buttons: fc.array(
          fc.record({
            label: fc.string({ maxLength: 100 }),
            actionId: fc.stringMatching(/^[0-9A-Za-z]{12}$/),
          }),
          { maxLength: 30 },
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(cardArbitrary, async (card) => {
        const violations = await violationsOf(card as Card);
        expect(violations).toEqual([]);
        expect(embedTotal(card as Card)).toBeLessThanOrEqual(LIMITS.embedTotal);
      }),
      { numRuns: 150 },
    );
  });
});
