import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPath, localFile, takeFileFlags } from '../../adapters/shell/attachments';

describe('terminal attachments: --file PATH', () => {
  it('takes the flag out of the line, with bare, quoted and = forms', () => {
    expect(takeFileFlags('/config set demo --file ./a.yaml')).toEqual({
      text: '/config set demo',
      paths: ['./a.yaml'],
      missingPath: false,
    });
    expect(takeFileFlags('/media upload --file "my clip.mp4" --title T').text).toMatch(
      /^\/media upload\s+--title T$/,
    );
    expect(takeFileFlags('/media upload --file "my clip.mp4" --title T').paths).toEqual(['my clip.mp4']);
    expect(takeFileFlags("/jobs load x --file='j s.yaml'").paths).toEqual(['j s.yaml']);
    expect(takeFileFlags('/jobs load x --file=j.yaml').paths).toEqual(['j.yaml']);
    expect(takeFileFlags('/media upload --file a --file b').paths).toEqual(['a', 'b']);
  });

  it('leaves other words alone and notices a --file with no path', () => {
    // A quoted value that starts with --file is the value of another option, not an attachment.
    expect(takeFileFlags('/jobs run x y --command "--file x"').paths).toEqual([]);
    expect(takeFileFlags('/deploy mytool --force-build')).toEqual({
      text: '/deploy mytool --force-build',
      paths: [],
      missingPath: false,
    });
    expect(takeFileFlags('/media upload --file').missingPath).toBe(true);
    expect(takeFileFlags('/media upload --file=').missingPath).toBe(true);
  });

  it('resolves ~ and relative paths', () => {
    expect(expandPath('~/x.yaml')).toBe(join(homedir(), 'x.yaml'));
    expect(expandPath('a/b.yaml', '/srv')).toBe('/srv/a/b.yaml');
    expect(expandPath('/abs.yaml', '/srv')).toBe('/abs.yaml');
  });

  it('a file streams its bytes when opened; a missing file or a folder is a sentence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deckhand-attach-'));
    writeFileSync(join(dir, 'jobs.yaml'), '- name: a\n');
    const file = localFile('jobs.yaml', dir);
    if (typeof file === 'string') throw new Error(file);
    expect(file).toMatchObject({ name: 'jobs.yaml', size: 10 });
    const chunks: Buffer[] = [];
    for await (const chunk of await file.open()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('- name: a\n');
    expect(localFile('nope.yaml', dir)).toBe(
      `There is no file nope.yaml (looked for ${join(dir, 'nope.yaml')}).`,
    );
    expect(localFile(dir)).toContain('is not a file');
  });
});
