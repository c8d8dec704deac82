import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../adapters/telegram/html';
import { MAX_PARTS, renderCard, TELEGRAM_LIMITS } from '../../adapters/telegram/render';
import { parseTelegramHtml } from '../fakes/telegram-html';

/** What Telegram shows for each part (parseTelegramHtml throws on markup Telegram would refuse). */
function shown(parts: string[]) {
  return parts.map((part) => parseTelegramHtml(part));
}

describe('Telegram escaping of untrusted text', () => {
  it('makes every link of a line inert: <a href> tags and [label](url), two or N of them', () => {
    const line =
      'Bring snacks: <a href="https://ok.example">menu</a> and <a href="https://evil.example/login">Confirm your seat</a> ' +
      Array.from({ length: 30 }, (_, i) => `[l${i}](https://evil.example/${i})`).join(' ');
    const { parts } = renderCard({
      title: line,
      text: line,
      fields: [
        { label: line, value: line },
        { label: 'Our link', value: 'docs', url: 'https://example.org/docs' },
      ],
      footer: line,
    });
    const all = shown(parts);
    // Positive control: the one link Deckhand made is there; none of the author's are.
    expect(all.flatMap((p) => p.entities).filter((e) => e.type === 'text_link')).toEqual([
      expect.objectContaining({ url: 'https://example.org/docs' }),
    ]);
    expect(
      all
        .map((p) => p.text)
        .join('\n')
        .split(line).length,
    ).toBeGreaterThan(3);
  });

  it('posts a 100,000-character word in at most MAX_PARTS messages within the limit, the whole in a document', () => {
    const word = '<&>ab'.repeat(20_000);
    const rendered = renderCard({ title: 'Paste', text: word });
    expect(rendered.parts.length).toBe(MAX_PARTS);
    const visible = shown(rendered.parts).map((p) => p.text);
    for (const text of visible) expect(text.length).toBeLessThanOrEqual(TELEGRAM_LIMITS.text);
    expect(visible[0]).toBe('Paste');
    expect(visible[1]).toMatch(/^<&>ab<&>ab/);
    expect(word.includes(visible[1] ?? 'x')).toBe(true);
    expect(visible.at(-1)).toMatch(/all of it is in paste_full\.txt\.$/);
    expect(rendered.documents).toEqual([expect.objectContaining({ filename: 'paste_full.txt' })]);
    expect(rendered.documents[0]?.content).toContain(word);
  });

  it('cuts a 100,000-character line of links and emoji between characters, never inside an entity', () => {
    const line = '[a](https://x)<a href="https://x">😀</a>&amp;'.repeat(2500).slice(0, 100_000);
    for (const mode of ['post', 'edit'] as const) {
      const { parts } = renderCard({ text: line, code: { text: line } }, mode);
      expect(parts.length).toBeLessThanOrEqual(mode === 'edit' ? 1 : MAX_PARTS);
      for (const part of shown(parts)) {
        expect(part.text.length).toBeLessThanOrEqual(TELEGRAM_LIMITS.text);
        expect(part.entities.filter((e) => e.type === 'text_link')).toEqual([]);
        expect(part.text).not.toMatch(
          /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
        );
      }
    }
  });

  it('drops bidi embeddings, overrides and isolates', () => {
    expect(escapeHtml('invoice\u202egpj.exe <b>')).toBe('invoicegpj.exe &lt;b&gt;');
    expect(escapeHtml('a\u2066b\u2069c')).toBe('abc');
  });
});
