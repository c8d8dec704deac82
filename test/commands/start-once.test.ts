/**
 * One start at a time per resource: concurrent `/build start` of one source and ref start
 * one build and all show it; another ref starts its own. Concurrent `/deploy` of one tool start one
 * deployment. Through the real runner, on the sandbox; the lock lives in Redis, so the same holds
 * across processes (test/queue/concurrent-deploy.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, startTestApp, type TestApp } from '../support/app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_STEP_MS: '1000' });
}, 60_000);
afterAll(async () => {
  if (t) await settled(t.app, 60_000).catch(() => undefined);
  await t?.close();
}, 90_000);

const footerOf = (cards: { footer?: string; fields?: { label: string; value: string }[] }[]) =>
  JSON.stringify(cards);

describe('one start at a time', () => {
  it('concurrent /build start of one source and ref start one build, and every answer shows it', async () => {
    const client = t.app.services.toolhost.forTool('mytool');
    const before = (await client.builds.list()).map((b) => b.build_id);
    const line = '/build start mytool https://gitlab.wikimedia.org/toolforge-repos/mytool --ref main';
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.say(line)));
    const fresh = (await client.builds.list()).filter((b) => !before.includes(b.build_id));
    expect(fresh).toHaveLength(1);
    const id = fresh[0]?.build_id as string;
    for (const cards of answers) expect(footerOf(cards)).toContain(id);
    expect(answers.filter((cards) => footerOf(cards).includes('already running'))).toHaveLength(5);

    // Another ref is another resource: it starts its own build.
    await t.say('/build start mytool https://gitlab.wikimedia.org/toolforge-repos/mytool --ref dev');
    const after = (await client.builds.list()).filter((b) => !before.includes(b.build_id));
    expect(after).toHaveLength(2);
  }, 60_000);

  it('concurrent /deploy of one tool start one deployment, and every answer shows it', async () => {
    const client = t.app.services.toolhost.forTool('demo');
    const before = (await client.components.listDeployments()).map((d) => d.deploy_id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.say('/deploy demo')));
    const fresh = (await client.components.listDeployments()).filter((d) => !before.includes(d.deploy_id));
    expect(fresh).toHaveLength(1);
    for (const cards of answers) expect(footerOf(cards)).toContain(fresh[0]?.deploy_id as string);
  }, 60_000);
});
