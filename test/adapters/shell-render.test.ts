import { describe, expect, it } from 'vitest';
import { PLAIN, renderCardText, sanitizeForTerminal } from '../../adapters/shell/render';

describe('shell card renderer', () => {
  it('renders title, status, fields, code and numbered buttons', () => {
    const text = renderCardText(
      {
        title: 'Deploy mytool',
        status: 'progress',
        fields: [
          { label: 'Status', value: 'running' },
          { label: 'Build web', value: 'running' },
        ],
        code: { text: 'line 1\nline 2' },
        buttons: [
          { label: 'View logs', actionId: 'a' },
          { label: 'Cancel', actionId: 'b' },
        ],
        footer: 'deployment 20261122-101010-abc',
      },
      PLAIN,
      [3, 4],
    );
    expect(text.split('\n')).toEqual([
      '[in progress] Deploy mytool',
      '  Status     running',
      '  Build web  running',
      '  │ line 1',
      '  │ line 2',
      '  [3] View logs  [4] Cancel',
      '  deployment 20261122-101010-abc',
    ]);
  });

  it('strips terminal control sequences from untrusted text', () => {
    expect(sanitizeForTerminal('ok\x1b[2J\x1b[31mred\x1b]0;title\x07\x07 done')).toBe('okred done');
    const text = renderCardText({ title: 'job \x1b[2Jx', code: { text: 'a\rb' } }, PLAIN);
    expect(text).not.toContain('\x1b');
    expect(text).not.toContain('\r');
  });

  it('strips every Unicode bidi control from untrusted text', () => {
    const controls = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ];
    for (const control of controls)
      expect(sanitizeForTerminal(`invoice${control}gpj.exe`)).toBe('invoicegpj.exe');
    const card = {
      title: 'build \u202eflig',
      text: 'a\u2066b',
      fields: [{ label: 'l\u200f', value: 'v\u061c' }],
      code: { text: 'c\u202d' },
      footer: 'f\u2069',
    };
    const text = renderCardText(card, PLAIN);
    // Positive control: the same text with the controls is what the card held.
    expect(JSON.stringify(card)).toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
    expect(text).toContain('build flig');
    expect(text).toContain('  l  v');
  });

  it('renders a 100,000-character word whole, with controls stripped', () => {
    const word = 'ab\u202e\x1b[31m'.repeat(12_500);
    const text = renderCardText({ title: word, text: word }, PLAIN);
    expect(text).toBe(`${'ab'.repeat(12_500)}\n${'ab'.repeat(12_500)}`);
  });
});
