/** IRC text handling: formatting stripped, untrusted text inert, byte-limit splitting, command lines, pacing. */
import { describe, expect, it } from 'vitest';
import { parseIrcLine } from '../../../adapters/irc/command-line';
import { FloodGate } from '../../../adapters/irc/flood';
import { renderCardLines, renderTransition } from '../../../adapters/irc/render';
import { inert, isCtcp, splitBytes, stripFormatting } from '../../../adapters/irc/text';

const context = {
  nick: 'deckhand',
  prefix: '!',
  isPrivate: false,
  groups: new Set(['deploy', 'help', 'tool']),
};

describe('IRC text', () => {
  it('strips colour, bold and other formatting codes from what people type', () => {
    expect(stripFormatting('\x0304,12!de\x02ploy\x02 \x1dmy\x1dtool\x0f\x04ff0000x')).toBe('!deploy mytoolx');
    expect(isCtcp('\x01VERSION\x01')).toBe(true);
    expect(isCtcp('!deploy')).toBe(false);
  });

  it('makes untrusted text one inert line: no control characters, line breaks or bidi controls', () => {
    expect(inert('ok\r\nPRIVMSG #x :owned\x01ACTION\x01 \u202eevil')).toBe(
      'ok PRIVMSG #x :owned ACTION evil',
    );
  });

  it('splits on character boundaries within the byte limit, losing nothing', () => {
    const text = `${'é'.repeat(300)}${'😀'.repeat(100)}`;
    const pieces = splitBytes(text, 101);
    for (const piece of pieces) expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(101);
    expect(pieces.join('')).toBe(text);
  });

  it('is linear on a huge line of control characters', () => {
    const started = Date.now();
    inert('\x03\x02'.repeat(500_000));
    splitBytes('a'.repeat(1_000_000), 400);
    // Milliseconds when linear; a quadratic pass over a million characters would take minutes.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('IRC command lines', () => {
  it('reads the prefix, the addressed form and the nick after the prefix', () => {
    expect(parseIrcLine('!deploy mytool', context)).toEqual({ kind: 'command', text: '/deploy mytool' });
    expect(parseIrcLine('!deckhand deploy mytool', context)).toEqual({
      kind: 'command',
      text: '/deploy mytool',
    });
    expect(parseIrcLine('Deckhand: deploy mytool', context)).toEqual({
      kind: 'command',
      text: '/deploy mytool',
    });
    expect(parseIrcLine('deckhand, !help', context)).toEqual({ kind: 'command', text: '/help' });
  });

  it('leaves other bots’ commands and ordinary talk alone in a channel', () => {
    expect(parseIrcLine('!log tools.mytool restarted', context)).toEqual({ kind: 'none' });
    expect(parseIrcLine('deploy mytool please', context)).toEqual({ kind: 'none' });
  });

  it('presses numbered buttons', () => {
    expect(parseIrcLine('!2', context)).toEqual({ kind: 'press', number: 2 });
    expect(parseIrcLine('!press 12', context)).toEqual({ kind: 'press', number: 12 });
    expect(parseIrcLine('3', { ...context, isPrivate: true })).toEqual({ kind: 'press', number: 3 });
  });

  it('takes every line of a private query as a command', () => {
    const query = { ...context, isPrivate: true };
    expect(parseIrcLine('deploy mytool', query)).toEqual({ kind: 'command', text: '/deploy mytool' });
    expect(parseIrcLine('/help', query)).toEqual({ kind: 'command', text: '/help' });
  });
});

describe('IRC cards', () => {
  it('shows at most three lines, with the buttons numbered and a link when something is left out', () => {
    const lines = renderCardLines(
      {
        title: 'Build of mytool',
        text: 'line one\nline two',
        status: 'success',
        fields: [{ label: 'id', value: 'b-1' }],
        code: { text: 'log' },
        buttons: [
          { label: 'Approve', actionId: 'a' },
          { label: 'Cancel', actionId: 'b' },
        ],
      },
      [7, 8],
      () => 'https://d.example/cards/x',
    );
    expect(lines).toEqual([
      '\x02[done]\x02 Build of mytool — line one',
      'id: b-1',
      '[7] Approve  [8] Cancel — type !<number> · full card: https://d.example/cards/x',
    ]);
  });

  it('posts a later version as one line saying what it gained; a long one loses text, never its buttons or link', () => {
    const card = {
      title: 'mytool: job failed',
      text: 'Job crashy failed.\nAda is on it: repeats of this failure are not announced.',
      status: 'danger' as const,
      code: { text: 'Traceback' },
      buttons: [{ label: 'Release', actionId: 'r' }],
    };
    const url = () => 'https://d.example/cards/y';
    expect(renderTransition(card, url, [9], 'Ada is on it: repeats of this failure are not announced.')).toBe(
      '\x02[failed]\x02 mytool: job failed — Job crashy failed. · Ada is on it: repeats of this failure are not announced. · [9] Release · https://d.example/cards/y',
    );
    const long = renderTransition(card, url, [9], `Ada is on it: ${'x'.repeat(600)}`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(380);
    expect(long).toMatch(/x… · \[9\] Release · https:\/\/d\.example\/cards\/y$/);
  });
});

describe('IRC flood gate', () => {
  it('lets a burst through, then one line per interval, per target', async () => {
    const gate = new FloodGate({ burst: 3, intervalMs: 100 });
    const started = Date.now();
    const times: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      await gate.take('#a');
      times.push(Date.now() - started);
    }
    expect(times.slice(0, 3).every((t) => t < 50)).toBe(true);
    expect(times[5]).toBeGreaterThanOrEqual(280);
  });
});
