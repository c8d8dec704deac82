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
});
