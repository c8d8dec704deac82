import { describe, expect, it } from 'vitest';
import { chunkEscaped, SLACK_LIMITS } from '../../adapters/slack/blocks';
import { escapeText, escapeWithin } from '../../adapters/slack/escape';
import { MAX_SHOWN_CHARS, renderCard } from '../../adapters/slack/render';
import { checkMessage } from '../fakes/slack';

type Block = {
  type: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: { text?: string }[];
};

/** Every text a Slack client would parse as mrkdwn or show as plain text, in one list. */
function textsOf(message: ReturnType<typeof renderCard>): string[] {
  const texts = [message.text];
  for (const block of (message.attachments[0]?.blocks ?? []) as Block[]) {
    if (block.text) texts.push(block.text.text);
    for (const field of block.fields ?? []) texts.push(field.text);
    for (const element of block.elements ?? [])
      if (typeof element.text === 'string') texts.push(element.text);
  }
  return texts;
}

/** Slack's `<…>` controls (links, mentions, broadcasts) in a text: https://api.slack.com/reference/surfaces/formatting. */
const SLACK_CONTROL = /<[^<>]*>/;

describe('Slack escaping of untrusted text', () => {
  it('makes every <url|label> of a line inert, two or N of them, with any brackets', () => {
    const lines = [
      'Bring snacks: <https://ok.example|menu> and <https://evil.example/login|Confirm your seat>',
      Array.from({ length: 40 }, (_, i) => `<https://evil.example/${i}|l${i}>`).join(' '),
      '<<https://evil.example|x>|y> <!channel> <@U1> [md](https://evil.example) [x](<https://evil.example>)',
    ];
    for (const line of lines) {
      expect(line).toMatch(SLACK_CONTROL); // positive control: the raw line has live controls
      const message = renderCard({
        title: line,
        text: line,
        fields: [{ label: line, value: line }],
        footer: line,
      });
      expect(checkMessage(message)).toEqual([]);
      const texts = textsOf(message);
      expect(texts.length).toBeGreaterThan(4);
      for (const text of texts) expect(text).not.toMatch(/[<>]/);
      expect(texts.join('\n')).toContain('&lt;https://evil.example');
    }
  });

  it('renders a 100,000-character word within every limit, escaped, never cut inside an entity', () => {
    const word = '<&>ab'.repeat(20_000);
    const message = renderCard({
      title: word,
      text: word,
      fields: [{ label: 'f', value: word }],
      footer: word,
    });
    expect(checkMessage(message)).toEqual([]);
    const blocks = message.attachments[0]?.blocks as Block[];
    const escaped = escapeText(word);
    const sections = blocks.filter((b) => b.type === 'section' && b.text).map((b) => b.text?.text ?? '');
    const shown = sections.filter((t) => !t.startsWith('*f*')).join('');
    expect(shown.length).toBeGreaterThan(SLACK_LIMITS.sectionText);
    expect(shown.length).toBeLessThanOrEqual(MAX_SHOWN_CHARS);
    expect(escaped.startsWith(shown)).toBe(true);
    for (const text of textsOf(message)) {
      expect(text).not.toMatch(/[<>]|&(a|am|amp|l|lt|g|gt)?(…|$)/);
    }
    expect(message.files.map((f) => f.content.includes(word))).toContain(true);
    expect(JSON.stringify(blocks)).toContain('did not fit in one message');
  });

  it('renders a 100,000-character line full of <url|x> and [a](url) within the limits', () => {
    const line = '<https://x|a>[a](https://x)*_~`'.repeat(4000).slice(0, 100_000);
    const message = renderCard({ text: line });
    expect(checkMessage(message)).toEqual([]);
    for (const text of textsOf(message)) expect(text).not.toMatch(/[<>]/);
  });

  it('cuts between characters: never half an entity or half a surrogate pair', () => {
    for (let max = 1; max < 30; max++) {
      for (const input of ['a&b<c>d', '😀&😀<😀']) {
        const { text, cut } = escapeWithin(input.repeat(5), max);
        expect(cut).toBe(true);
        expect(text.length).toBeLessThanOrEqual(max);
        expect(escapeText(input.repeat(5)).startsWith(text.slice(0, -1))).toBe(true);
        expect(text).not.toMatch(/&(a|am|amp|l|lt|g|gt)?…$|[\ud800-\udbff]…$/);
      }
    }
    const pieces = chunkEscaped('😀&'.repeat(5000), 100);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(100);
      expect(piece).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$|&(a|am|amp)?$/);
    }
    expect(pieces.join('')).toBe(escapeText('😀&'.repeat(5000)));
  });

  it('drops bidi embeddings, overrides and isolates', () => {
    expect(escapeText('invoice\u202egpj.exe <b>')).toBe('invoicegpj.exe &lt;b&gt;');
    expect(escapeWithin('a\u2066b\u2069c', 10).text).toBe('abc');
  });
});
