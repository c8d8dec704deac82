import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors';
import { downloadPageUrl, MAX_SUBTITLES, playerHostOf, playerUrl } from '../../src/services/media';

const HOST = 'https://dood.to';

describe('player links', () => {
  it('is the embed address of the file without options', () => {
    expect(playerUrl(HOST, '98zukoh5jqiw')).toBe('https://dood.to/e/98zukoh5jqiw');
    expect(downloadPageUrl('https://dood.la/', 'abc123')).toBe('https://dood.la/d/abc123');
  });

  it('adds a poster as c_poster, URL-encoded', () => {
    const url = new URL(playerUrl(HOST, 'abc123', { poster: 'https://img.example.org/p q.jpg?x=1&y=2' }));
    expect(url.searchParams.get('c_poster')).toBe('https://img.example.org/p%20q.jpg?x=1&y=2');
    expect(url.search).toContain('c_poster=https%3A%2F%2Fimg.example.org%2Fp%2520q.jpg%3Fx%3D1%26y%3D2');
  });

  it('numbers subtitles c1_file/c1_label, c2_file/c2_label, … in order', () => {
    const url = new URL(
      playerUrl(HOST, 'abc123', {
        subtitles: [
          { url: 'https://subs.example.org/en.vtt', label: 'English' },
          { url: 'https://subs.example.org/de.srt', label: 'Deutsch (DE)' },
        ],
      }),
    );
    expect([...url.searchParams]).toEqual([
      ['c1_file', 'https://subs.example.org/en.vtt'],
      ['c1_label', 'English'],
      ['c2_file', 'https://subs.example.org/de.srt'],
      ['c2_label', 'Deutsch (DE)'],
    ]);
  });

  it('passes a JSON list of subtitles as subtitle_json, with a poster', () => {
    const url = new URL(
      playerUrl(HOST, 'abc123', {
        poster: 'http://img.example.org/p.png',
        subtitlesJson: 'https://subs.example.org/list.json',
      }),
    );
    expect(url.searchParams.get('subtitle_json')).toBe('https://subs.example.org/list.json');
    expect(url.searchParams.get('c_poster')).toBe('http://img.example.org/p.png');
  });

  it.each([
    [{ poster: 'not a url' }, 'The poster `not a url` is not a URL.'],
    [{ poster: 'javascript:alert(1)' }, 'The poster must be an http(s) address, not javascript.'],
    [
      { subtitles: [{ url: 'https://x.example/en.txt', label: 'English' }] },
      'Subtitle 1 must be a .srt or .vtt file',
    ],
    [
      { subtitles: [{ url: 'ftp://x.example/en.vtt', label: 'English' }] },
      'The subtitle 1 must be an http(s) address',
    ],
    [{ subtitles: [{ url: 'https://x.example/en.vtt', label: '  ' }] }, 'Subtitle 1 needs a label'],
    [{ subtitlesJson: 'file:///etc/passwd' }, 'The subtitles JSON must be an http(s) address, not file.'],
    [
      {
        subtitles: [{ url: 'https://x.example/en.vtt', label: 'en' }],
        subtitlesJson: 'https://x.example/s.json',
      },
      'Give either --sub/--label pairs or --subtitles-json, not both.',
    ],
  ])('refuses %j', (options, message) => {
    expect(() => playerUrl(HOST, 'abc123', options)).toThrow(UsageError);
    expect(() => playerUrl(HOST, 'abc123', options)).toThrow(message);
  });

  it('refuses more subtitles than fit, and a file code that is not one', () => {
    const many = Array.from({ length: MAX_SUBTITLES + 1 }, (_, i) => ({
      url: `https://x.example/${i}.vtt`,
      label: `L${i}`,
    }));
    expect(() => playerUrl(HOST, 'abc123', { subtitles: many })).toThrow(
      `At most ${MAX_SUBTITLES} subtitles`,
    );
    expect(() => playerUrl(HOST, '../admin', {})).toThrow('is not a file code');
  });

  it('reads the player host from a link the host returned', () => {
    expect(playerHostOf('https://dood.li/d/xyz')).toBe('https://dood.li');
    expect(playerHostOf('/e/xyz')).toBeUndefined();
  });
});
