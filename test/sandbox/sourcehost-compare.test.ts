import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, stopEmulators } from '../../packages/sandbox/src/index';
import type { SourcehostSandbox } from '../../packages/sandbox/src/sourcehost/index';
import type { ToolhostSandbox } from '../../packages/sandbox/src/toolhost/index';
import { UpstreamError } from '../../src/core/errors';
import { SourcehostFactory } from '../../src/services/sourcehost';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { waitFor } from '../support/wait';

const REPO = 'toolforge-repos/demo';
let source: SourcehostSandbox;
let toolhost: ToolhostSandbox;
let factory: SourcehostFactory;
const stop: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const emulators = await startEmulators(['toolhost', 'sourcehost'], { stepMs: 10, dataDir: '/tmp' });
  stop.push(() => stopEmulators(emulators));
  source = emulators.sourcehost as SourcehostSandbox;
  toolhost = emulators.toolhost as ToolhostSandbox;
  factory = new SourcehostFactory({
    apiUrl: source.apiUrl,
    webUrl: source.webUrl,
    clientId: source.clientId,
    clientSecret: source.clientSecret,
  });
  stop.push(() => factory.close());
});
afterAll(async () => {
  for (const close of stop.reverse()) await close();
});

describe('source host compare (GET /repos/{owner}/{repo}/compare/{basehead})', () => {
  it('lists the commits HEAD has and BASE has not, oldest first, with authors and the total', async () => {
    const base = source.controls.pushCommit(REPO, 'main', {
      message: 'Start',
      authorName: 'Mona Lisa',
      login: 'mona',
    });
    source.controls.pushCommit(REPO, 'main', {
      message: 'First fix\n\nLong body.',
      authorName: 'Mona Lisa',
      login: 'mona',
    });
    const head = source.controls.pushCommit(REPO, 'main', {
      message: 'Second fix',
      authorName: 'Someone Else',
    });
    const commits = factory.anonymous().commits;

    const ahead = await commits.compare('toolforge-repos', 'demo', base, head);
    expect(ahead).toMatchObject({ status: 'ahead', ahead_by: 2, behind_by: 0, total_commits: 2 });
    expect(
      ahead.commits.map((c) => [c.commit.message, c.commit.author?.name, c.author?.login ?? null]),
    ).toEqual([
      ['First fix\n\nLong body.', 'Mona Lisa', 'mona'],
      ['Second fix', 'Someone Else', null],
    ]);
    expect(ahead.commits[1]?.sha).toBe(head);

    const byBranch = await commits.compare('toolforge-repos', 'demo', base.slice(0, 7), 'main');
    expect(byBranch.total_commits).toBe(2);
    const behind = await commits.compare('toolforge-repos', 'demo', head, base);
    expect(behind).toMatchObject({
      status: 'behind',
      ahead_by: 0,
      behind_by: 2,
      total_commits: 0,
      commits: [],
    });
    const unknown = await commits.compare('toolforge-repos', 'demo', base, 'f'.repeat(40)).catch((e) => e);
    expect(unknown).toBeInstanceOf(UpstreamError);
    expect((unknown as UpstreamError).status).toBe(404);
  });

  it("builds of the host's repositories record the branch head as resolved_ref; a SHA ref builds that commit", async () => {
    const repository = `${source.webUrl}/${REPO}`;
    const head = source.controls.pushCommit(REPO, 'main', { message: 'Build me', authorName: 'Mona Lisa' });
    const earlier = source.controls.pushCommit(REPO, 'other', {
      message: 'Elsewhere',
      authorName: 'Mona Lisa',
    });
    const client = ToolhostClientFactory.forSandbox(toolhost).forTool('demo');
    const fromBranch = await client.builds.start({ source_url: repository, ref: 'main' });
    expect(fromBranch.resolved_ref).toBe(head);
    const pinned = await client.builds.start({ source_url: repository, ref: earlier });
    expect((await client.builds.show(pinned.name)).resolved_ref).toBe(earlier);

    const broken = source.controls.pushCommit(REPO, 'main', {
      message: 'Break it',
      authorName: 'Hubot',
      failsBuild: true,
    });
    const failing = await client.builds.start({ source_url: repository, ref: 'main' });
    const done = await waitFor(async () => {
      const build = await client.builds.show(failing.name);
      return build.status === 'BUILD_FAILURE' || build.status === 'BUILD_SUCCESS' ? build : undefined;
    });
    expect(done).toMatchObject({ status: 'BUILD_FAILURE', resolved_ref: broken });
  });
});
