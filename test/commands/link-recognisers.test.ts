import { describe, expect, it } from 'vitest';
import { phabricatorLinks } from '../../commands/phabricator/task';
import { toolhostLinks } from '../../commands/toolhost/links';
import { recogniseLinks } from '../../src/core/unfurls';

const recognise = (text: string) => recogniseLinks([toolhostLinks, phabricatorLinks], [text]);

describe('link recognisers', () => {
  it('reads tool pages, admin pages, build and deployment ids and tasks, each subject once', () => {
    const found = recognise(
      'see https://MyTool.toolforge.org/x and https://toolsadmin.wikimedia.org/tools/id/mytool, ' +
        'build mytool-buildpacks-pipelinerun-abcde, deployment 20261127-113113-jfsrou72zx, T123 and ' +
        'https://phabricator.wikimedia.org/T123',
    );
    expect(found.map((link) => link.line)).toEqual([
      '/tool status mytool',
      '/build show mytool mytool-buildpacks-pipelinerun-abcde',
      '/deployment show 20261127-113113-jfsrou72zx',
      '/task T123',
    ]);
  });

  it('ignores look-alikes: other domains, ids inside words and paths', () => {
    expect(
      recognise(
        'https://mytool.toolforge.org.evil.example/ https://evil.example/?u=x.toolforge.org ' +
          'AT123 /T123 T123x https://example.org/T5 xmytool-buildpacks-pipelinerun-abcdef',
      ),
    ).toEqual([]);
  });

  it('reads a long pasted text in linear time', () => {
    const text = `${'T'.repeat(200_000)} ${'a-'.repeat(100_000)}toolforge.org ${'1'.repeat(100_000)}`;
    const started = performance.now();
    recognise(text);
    // Milliseconds when linear; a quadratic scan of 600,000 characters would take minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
