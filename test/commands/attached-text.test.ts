import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { attachedText, MAX_TEXT_BYTES, parseYamlText } from '../../commands/attached-text';
import { UsageError } from '../../src/core/errors';
import type { IncomingFile } from '../../src/core/files';

const file = (name: string, content: Buffer, size?: number): IncomingFile => ({
  name,
  ...(size !== undefined ? { size } : {}),
  open: async () => Readable.from([content]),
});

const refusal = async (work: () => Promise<unknown> | unknown): Promise<string> => {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no refusal');
};

/** How to attach a file on the reader's platform (its descriptor's words). */
const HOW = 'Send the file with /jobs load as its caption.';

describe('reading an attached configuration or jobs file', () => {
  it('reads one small UTF-8 file', async () => {
    expect(await attachedText([file('a.yaml', Buffer.from('x: é'))], 'attached-what-jobs', HOW)).toBe('x: é');
  });

  it('refuses no file, two files, a big file (by size or by its bytes) and a binary one', async () => {
    expect(await refusal(() => attachedText([], 'attached-what-jobs', HOW))).toBe(
      'Attach a jobs file (YAML, as /jobs dump writes it).',
    );
    const noFile = await attachedText([], 'attached-what-jobs', HOW).catch((error: unknown) => error);
    expect((noFile as UsageError).hint).toBe(HOW);
    expect(
      await refusal(() =>
        attachedText([file('a', Buffer.from('')), file('b', Buffer.from(''))], 'attached-what-jobs', HOW),
      ),
    ).toContain('Attach one file only (2 were attached).');
    expect(
      await refusal(() =>
        attachedText([file('big.yaml', Buffer.alloc(10), MAX_TEXT_BYTES + 1)], 'attached-what-jobs', HOW),
      ),
    ).toContain('big.yaml is over 256 KiB');
    expect(
      await refusal(() =>
        attachedText([file('big.yaml', Buffer.alloc(MAX_TEXT_BYTES + 1, 65))], 'attached-what-jobs', HOW),
      ),
    ).toContain('big.yaml is over 256 KiB');
    expect(
      await refusal(() =>
        attachedText([file('x.bin', Buffer.from([0xff, 0xfe, 0x00]))], 'attached-what-jobs', HOW),
      ),
    ).toBe('x.bin is not a text file (it is not valid UTF-8).');
  });

  it('names the line of a YAML syntax error, and reads JSON too', async () => {
    expect(await refusal(() => parseYamlText('a: 1\nb: [1, 2\nc: 3\n', 'jobs.yaml'))).toMatch(
      /^jobs\.yaml is not valid YAML or JSON at line \d+: /,
    );
    expect(parseYamlText('{"components": {}}', 'x.json')).toEqual({ components: {} });
  });
});
