import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isCloudApi } from '../../adapters/telegram/bot';
import { parseCommandLine } from '../../adapters/telegram/command-line';
import { createTelegramAdapter } from '../../adapters/telegram/load';
import { renderCard, TELEGRAM_LIMITS } from '../../adapters/telegram/render';
import type { AdapterContext } from '../../adapters/types';
import { loadConfig } from '../../src/config';
import type { Card } from '../../src/core/reply';
import { attachLogScrubber } from '../../src/secrets';
import { SecretIndex } from '../../src/store/secret-index';
import { parseTelegramHtml } from '../fakes/telegram-html';

/** What a Telegram user sees of a rendered message. */
function seen(html: string) {
  return parseTelegramHtml(html);
}

describe('Telegram rendering', () => {
  it('shows untrusted text literally: any card parses as Telegram HTML and keeps every string', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 80 });
    fc.assert(
      fc.property(text, text, text, text, text, (title, body, label, value, code) => {
        const card: Card = {
          title: `t${title}`,
          text: `x${body}`,
          fields: [{ label: `l${label}`, value: `v${value}` }],
          code: { text: `c${code}` },
          footer: 'f<&>',
          status: 'info',
        };
        const [html, ...more] = renderCard(card).parts;
        expect(more).toEqual([]);
        const visible = seen(html as string).text;
        for (const part of [`t${title}`, `x${body}`, `l${label}`, `v${value}`, `c${code}`, 'f<&>']) {
          expect(visible).toContain(part);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never lets a name add markup: <b> and & come out escaped, with no entity of their own', () => {
    const card: Card = {
      title: 'Job <b>web</b> & co',
      fields: [{ label: 'Command', value: 'echo "<i>&amp;</i>" <a href="x">' }],
      status: 'success',
    };
    const [html] = renderCard(card).parts;
    expect(html).toContain('<b>Job &lt;b&gt;web&lt;/b&gt; &amp; co</b>');
    expect(html).toContain('echo "&lt;i&gt;&amp;amp;&lt;/i&gt;" &lt;a href="x"&gt;');
    const parsed = seen(html as string);
    expect(parsed.text).toContain('Job <b>web</b> & co');
    expect(parsed.text).toContain('echo "<i>&amp;</i>" <a href="x">');
    expect(parsed.entities.map((e) => e.type)).toEqual(['bold', 'bold']);
  });

  it('splits long text over several messages of at most 4,096 characters, in order', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i} ${'·'.repeat(40)} <&>`);
    const rendered = renderCard({
      title: 'Long',
      text: lines.join('\n'),
      buttons: [{ label: 'Go', actionId: 'A1' }],
    });
    expect(rendered.parts.length).toBeGreaterThan(2);
    const texts = rendered.parts.map((part) => seen(part).text);
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(TELEGRAM_LIMITS.text);
    const joined = texts.join('\n');
    let at = 0;
    for (const line of lines) {
      at = joined.indexOf(line, at);
      expect(at).toBeGreaterThanOrEqual(0);
    }
    expect(rendered.keyboard?.inline_keyboard.flat()).toEqual([{ text: 'Go', callback_data: 'A1' }]);
  });

  it('splits a single over-long line without breaking a character', () => {
    const emoji = '🚀'.repeat(5000);
    const rendered = renderCard({ text: emoji });
    expect(rendered.parts.length).toBe(3);
    expect(rendered.parts.map((p) => seen(p).text).join('')).toBe(emoji);
  });

  it('keeps the tail of a long log in the message and sends the whole log as a document', () => {
    const log = Array.from({ length: 800 }, (_, i) => `2026-11-22T10:00:${i} step ${i} <ok> & done`).join(
      '\n',
    );
    const rendered = renderCard({ title: 'Logs of web', code: { text: log }, status: 'info' });
    expect(rendered.parts).toHaveLength(1);
    const visible = seen(rendered.parts[0] as string);
    expect(visible.text.length).toBeLessThanOrEqual(TELEGRAM_LIMITS.text);
    expect(visible.text).toContain('step 799 <ok> & done');
    expect(visible.text).not.toContain('step 1 <ok>');
    expect(visible.text).toMatch(/\d+ earlier lines: the whole output is in logs_of_web\.txt/);
    expect(rendered.documents).toEqual([
      { filename: 'logs_of_web.txt', content: log, caption: '📎 Logs of web' },
    ]);
  });

  it('fits an edited card into one message, saying it was shortened', () => {
    const text = 'word '.repeat(2000);
    const rendered = renderCard(
      { title: 'Edit', text, buttons: [{ label: 'Stop', actionId: 'S1' }] },
      'edit',
    );
    expect(rendered.parts).toHaveLength(1);
    const visible = seen(rendered.parts[0] as string).text;
    expect(visible.length).toBeLessThanOrEqual(TELEGRAM_LIMITS.text);
    expect(visible).toMatch(/shortened to fit one Telegram message\)$/);
    expect(rendered.keyboard).toBeDefined();
  });

  it('clips document captions to 1,024 characters', () => {
    const rendered = renderCard({
      title: 'T'.repeat(3000),
      attachments: [{ filename: 'a b/c.txt', content: 'x' }],
    });
    const [doc] = rendered.documents;
    expect(doc?.filename).toBe('a_b_c.txt');
    expect(seen(doc?.caption as string).text.length).toBeLessThanOrEqual(TELEGRAM_LIMITS.caption);
  });

  it('puts short action ids in callback_data and links in URL buttons', () => {
    const rendered = renderCard({
      text: 'x',
      buttons: [
        { label: 'Restart', actionId: 'AbCdEfGhIjKl' },
        { label: 'Too long', actionId: 'x'.repeat(65) },
      ],
      links: [
        { label: 'Docs', url: 'https://example.org/docs' },
        { label: 'Local', url: 'file:///etc/passwd' },
      ],
    });
    expect(rendered.keyboard?.inline_keyboard.flat()).toEqual([
      { text: 'Restart', callback_data: 'AbCdEfGhIjKl' },
      { text: 'Docs', url: 'https://example.org/docs' },
    ]);
    expect(seen(rendered.parts[0] as string).text).toContain('Local: file:///etc/passwd');
  });
});

describe('Telegram adapter configuration', () => {
  it('is off without TELEGRAM_BOT_TOKEN', () => {
    const config = loadConfig({});
    expect(createTelegramAdapter({ config } as AdapterContext)).toBeUndefined();
  });

  it('knows the cloud Bot API (20 MB downloads) from a local Bot API server', () => {
    expect(isCloudApi(loadConfig({}))).toBe(true);
    expect(isCloudApi(loadConfig({ TELEGRAM_API_ROOT: 'https://api.telegram.org/' }))).toBe(true);
    expect(isCloudApi(loadConfig({ TELEGRAM_API_ROOT: 'http://bot-api.internal:8081' }))).toBe(false);
  });

  it('reads /cmd, /cmd@bot and flags typed with a long dash', () => {
    expect(parseCommandLine('/deploy mytool', 'deckhand_bot')).toEqual({
      kind: 'command',
      name: 'deploy',
      rest: 'mytool',
      addressed: false,
    });
    expect(parseCommandLine('/Deploy@Deckhand_Bot  mytool —force-build', 'deckhand_bot')).toEqual({
      kind: 'command',
      name: 'deploy',
      rest: 'mytool --force-build',
      addressed: true,
    });
    expect(parseCommandLine('/deploy@other_bot mytool', 'deckhand_bot')).toEqual({ kind: 'other-bot' });
    expect(parseCommandLine('deploy mytool', 'deckhand_bot')).toEqual({ kind: 'none' });
    expect(parseCommandLine('/deploy-now', 'deckhand_bot')).toEqual({ kind: 'none' });
  });
});

describe('Telegram secret masking', () => {
  it('masks registered secrets in every part of a public card, never in a private one', () => {
    // A configured secret is known without Redis (hashed in memory at start-up), so no connection is needed.
    const index = new SecretIndex({} as never, {
      key: Buffer.alloc(32, 7),
      config: { TEST_TOKEN: 's3cr3t-value-42' },
    });
    const detach = attachLogScrubber(index);
    onTestFinished(() => {
      detach();
    });
    const leaky: Card = {
      title: 'x s3cr3t-value-42',
      text: 'a s3cr3t-value-42',
      fields: [{ label: 'k', value: 's3cr3t-value-42' }],
      code: { text: 'export KEY=s3cr3t-value-42' },
      footer: 's3cr3t-value-42',
      attachments: [{ filename: 'env.txt', content: 'KEY=s3cr3t-value-42' }],
    };
    const open = renderCard(leaky);
    expect(JSON.stringify(open)).not.toContain('s3cr3t-value-42');
    expect(open.documents[0]?.content).toBe('KEY=[redacted]');
    const privately = renderCard({ ...leaky, visibility: 'private' });
    expect(privately.parts[0]).toContain('s3cr3t-value-42');
  });
});
