/**
 * Matrix pieces without a homeserver: untrusted text inert in `body` and `formatted_body` (in
 * linear time), command lines, command mentions in the room's form, reaction keys.
 */
import { describe, expect, it } from 'vitest';
import { commandWords } from '../../adapters/command-words';
import { numberOfKey } from '../../adapters/matrix/buttons';
import { parseLine, withoutReplyFallback } from '../../adapters/matrix/command-line';
import { escapeHtml, renderCard } from '../../adapters/matrix/render';

const line = (text: string, direct = false) =>
  parseLine(text, { prefix: '!', names: ['deckhand'], groups: new Set(['deploy', 'help', 'media']), direct });

describe('Matrix rendering', () => {
  it('keeps untrusted text plain in body, escaped in formatted_body, and pings nobody', () => {
    const untrusted = '@room <a href="https://matrix.to/#/@ada:example.org">Ada</a> <b>x</b> & \u202eevil';
    const { content } = renderCard({
      title: 'Log <i>',
      text: untrusted,
      fields: [{ label: 'branch', value: '<script>' }],
    });
    expect(content['m.mentions']).toEqual({});
    expect(content.body).toContain(
      '@room <a href="https://matrix.to/#/@ada:example.org">Ada</a> <b>x</b> & evil',
    );
    expect(content.formatted_body).not.toMatch(/<(a|b|i|script)\b/);
    expect(content.formatted_body).toContain(
      '&lt;a href=&quot;https://matrix.to/#/@ada:example.org&quot;&gt;',
    );
    expect(content.formatted_body).toContain('&lt;script&gt;');
    expect(content.body).not.toContain('\u202e');
  });

  it('escapes in time linear in the input, and cuts at the budget', () => {
    // 300,000 characters: a few milliseconds when linear; a quadratic escape would take minutes,
    // so the bound holds on a busy machine and still catches one.
    const big = '<&>'.repeat(100_000);
    const started = performance.now();
    escapeHtml(big);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(escapeHtml(big, 100).length).toBeLessThanOrEqual(100);
  });

  it('numbers buttons and attaches a text beyond the budget whole', () => {
    const rendered = renderCard({
      text: `${'x'.repeat(20_000)}END`,
      buttons: [
        { label: 'Approve', actionId: 'a1' },
        { label: 'Deny', actionId: 'a2' },
      ],
    });
    expect(rendered.content.body).toContain('[1] Approve   [2] Deny');
    expect(rendered.content.body.length).toBeLessThan(13_000);
    expect(rendered.attachments[0]?.content.endsWith('END')).toBe(true);
  });

  it('writes command mentions with the prefix, leaving paths and URLs alone', () => {
    const words = commandWords('!', ['deploy', 'media']);
    expect(words('Run /deploy mytool, or see https://x.org/deploy and /tool/deploy.')).toBe(
      'Run !deploy mytool, or see https://x.org/deploy and /tool/deploy.',
    );
    const card = renderCard({ text: 'Try /media upload.' }, words);
    expect(card.content.body).toBe('Try !media upload.');
  });
});

describe('Matrix command lines', () => {
  it('reads prefixed, addressed and direct commands, and presses', () => {
    expect(line('!deploy mytool --force-build')).toEqual({
      kind: 'command',
      text: '/deploy mytool --force-build',
    });
    expect(line('!deckhand deploy mytool')).toEqual({ kind: 'command', text: '/deploy mytool' });
    expect(line('!deckhand')).toEqual({ kind: 'command', text: '/help' });
    expect(line('deploy mytool', true)).toEqual({ kind: 'command', text: '/deploy mytool' });
    expect(line('!2')).toEqual({ kind: 'press', number: 2 });
    expect(line('!press 3')).toEqual({ kind: 'press', number: 3 });
    expect(line('!cancel')).toEqual({ kind: 'cancel' });
    expect(line('deckhand: deploy mytool')).toEqual({ kind: 'command', text: '/deploy mytool' });
    expect(line('@deckhand:example.org: deploy mytool')).toEqual({ kind: 'command', text: '/deploy mytool' });
    expect(line('Deckhand, !2')).toEqual({ kind: 'press', number: 2 });
    expect(line('ada: deploy mytool')).toEqual({ kind: 'none' });
  });

  it('leaves other bots’ commands and chatter alone', () => {
    expect(line('!ban someone')).toEqual({ kind: 'none' });
    expect(line('deploy mytool please')).toEqual({ kind: 'none' });
    expect(line('forty-two', true)).toEqual({ kind: 'none' });
    expect(line('!ban someone', true)).toEqual({ kind: 'command', text: '/ban someone' });
  });

  it('drops the quoted fallback of a reply, and reads reaction keys', () => {
    expect(withoutReplyFallback('> <@ada:x> card\n> more\n\n!1')).toBe('!1');
    expect(numberOfKey('2️⃣')).toBe(2);
    expect(numberOfKey('2⃣')).toBe(2);
    expect(numberOfKey('👍')).toBeUndefined();
  });
});
