import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourcehostLinks } from '../../commands/sourcehost/source-refs';
import { recogniseLinks } from '../../src/core/unfurls';
import { startTestApp, type TestApp } from '../support/app';
import { linkDirectly, slackUser } from '../support/oauth-web';

let t: TestApp;
let sha = '';
let privateSha = '';
let web = '';

beforeAll(async () => {
  t = await startTestApp();
  const sourcehost = t.app.emulators.sourcehost;
  if (!sourcehost) throw new Error('the source host emulator is not running');
  web = sourcehost.webUrl;
  sourcehost.controls.pushCommit('toolforge-repos/mytool', 'main', {
    message: 'Start the web service on port 8000',
    authorName: 'Mona Lisa',
    login: 'mona',
  });
  sha = sourcehost.controls.pushCommit('toolforge-repos/mytool', 'main', {
    message: 'Serve <b>robots.txt</b> @everyone\n\nCrawlers asked for it.',
    authorName: 'Mona Lisa',
    login: 'mona',
  });
  privateSha = sourcehost.controls.pushCommit('mona/notes', 'main', {
    message: 'secret plans',
    authorName: 'Mona',
  });
  sourcehost.controls.openPull('toolforge-repos/mytool', {
    title: 'Serve robots.txt',
    login: 'mona',
    head: 'robots',
  });
  const merged = sourcehost.controls.openPull('toolforge-repos/mytool', {
    title: 'Older fix',
    login: 'hubot',
    head: 'fix',
  });
  sourcehost.controls.closePull('toolforge-repos/mytool', merged, true);
  await linkDirectly(t.app, slackUser('UMONA'), 'mona', ['read:user', 'repo']);
});
afterAll(async () => {
  await t.close();
});

describe('/source commit', () => {
  it("shows a commit's first line, author and link, by address or owner/repo@SHA", async () => {
    const [byAddress] = await t.say(`/source commit ${web}/toolforge-repos/mytool/commit/${sha}`);
    expect(byAddress?.title).toBe(
      `toolforge-repos/mytool@${sha.slice(0, 7)}: Serve <b>robots.txt</b> @everyone`,
    );
    expect(byAddress?.text).toBe('Crawlers asked for it.');
    expect(byAddress?.fields?.[0]).toMatchObject({ label: 'Author', value: 'mona' });
    expect(byAddress?.links?.[0]?.url).toBe(`${web}/toolforge-repos/mytool/commit/${sha}`);
    const [short] = await t.say(`/source commit toolforge-repos/mytool@${sha.slice(0, 7)}`);
    expect(short?.title).toBe(byAddress?.title);
  });

  it('reads a private repository only with a linked account that may see it', async () => {
    const [anonymous] = await t.say(`/source commit mona/notes@${privateSha}`);
    expect(anonymous?.status).toBe('danger');
    expect(JSON.stringify(anonymous)).toContain('No commit');
    expect(JSON.stringify(anonymous)).not.toContain('secret plans');
    const [linked] = await t.say(`/source commit mona/notes@${privateSha}`, { user: 'UMONA' });
    expect(linked?.title).toContain('secret plans');
  });

  it('refuses an address on another host and a malformed reference, changing nothing', async () => {
    const [other] = await t.say(
      `/source commit https://elsewhere.example/toolforge-repos/mytool/commit/${sha}`,
    );
    expect(other?.status).toBe('warning');
    expect(JSON.stringify(other)).toContain('not on');
    const [bad] = await t.say('/source commit mytool');
    expect(bad?.status).toBe('warning');
    expect(JSON.stringify(bad)).toContain('owner/repo@SHA');
    const [unknown] = await t.say('/source commit toolforge-repos/mytool@0000000');
    expect(JSON.stringify(unknown)).toContain('No commit 0000000 in toolforge-repos/mytool');
  });
});

describe('/source pr', () => {
  it("shows a pull request's title, state, author and branches, by address or owner/repo#N", async () => {
    const [open] = await t.say(`/source pr ${web}/toolforge-repos/mytool/pull/1`);
    expect(open?.title).toBe('toolforge-repos/mytool#1: Serve robots.txt');
    expect(open?.fields).toEqual([
      { label: 'State', value: 'open', inline: true },
      { label: 'Author', value: 'mona', inline: true },
      { label: 'Branches', value: 'robots → main', inline: true },
    ]);
    expect(open?.links?.[0]?.url).toBe(`${web}/toolforge-repos/mytool/pull/1`);
    const [merged] = await t.say('/source pr toolforge-repos/mytool#2');
    expect(merged?.fields?.[0]).toEqual({ label: 'State', value: 'merged', inline: true });
    const [missing] = await t.say('/source pr toolforge-repos/mytool#99');
    expect(JSON.stringify(missing)).toContain('No pull request #99 in toolforge-repos/mytool');
  });
});

describe('commit and pull request addresses in a message', () => {
  it('are recognised once per commit, with the look-alikes left alone', () => {
    const found = recogniseLinks(
      [sourcehostLinks],
      [
        'see https://github.com/o/r/commit/3f2a9c1d and https://github.com/O/R/commit/3F2A9C1DEE again, ' +
          'not https://github.com/o/r/commits/3f2a9c1 nor https://github.com/o/r/commit/xyz, ' +
          'https://github.com/o/r/pull/12 twice: https://github.com/o/r/pull/12/files, not …/pulls/12',
      ],
    );
    expect(found.map((link) => link.line)).toEqual([
      '/source commit https://github.com/o/r/commit/3f2a9c1d',
      '/source pr https://github.com/o/r/pull/12',
    ]);
  });

  it('are read in linear time in a long pasted text', () => {
    const text = `${'https://a/'.repeat(50_000)} ${'http://x/o/r/commit/'.repeat(20_000)}${'http://x/o/r/pull/'.repeat(20_000)}`;
    const started = performance.now();
    recogniseLinks([sourcehostLinks], [text]);
    // Milliseconds when linear; a quadratic scan of 1,300,000 characters would take minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
