import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Job, ToolhostClientFactory } from '../../src/services/toolhost';
import { button, type TestApp } from '../support/app';
import { expectReplies } from '../support/replies';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let sandbox: ToolhostSandbox;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, sandbox, platform } = started);
});

const jobs = (tool: string): Promise<Job[]> => platform.forTool(tool).jobs.list();
/** A request to the sandbox's public web front for `<tool>.localhost`. */
const visit = async (tool: string) => {
  const res = await request(`${sandbox.publicUrl}/`, { headers: { host: `${tool}.localhost` } });
  return { status: res.statusCode, body: await res.body.text() };
};

describe('/webservice', () => {
  it('shows the published job of a tool, which the public front serves', async () => {
    const [card] = await t.say('/webservice status mytool');
    expect(card?.title).toBe('Web service of mytool');
    expect(card?.fields?.find((f) => f.label === 'Job')?.value).toBe('web');
    expect(card?.fields?.find((f) => f.label === 'URL')?.value).toBe(sandbox.publicUrlFor('mytool'));
    expect(card?.buttons?.map((b) => b.label)).toEqual(['Restart', 'Logs', 'Stop']);
    const page = await visit('mytool');
    expect(page.status).toBe(200);
    expect(page.body).toContain('served by job web');
    // demo publishes nothing: the front's "No webservice" page.
    expect((await visit('demo')).status).toBe(404);
  });

  it('restarts the web service from the status card and follows it until it runs again', async () => {
    const [card] = await t.say('/tool status mytool');
    expect(card?.fields?.find((f) => f.label === 'Web service')?.value).toMatch(/^running.* · job web$/);
    const [restarting] = await t.press(button(card, 'Restart web service'));
    expect(restarting?.status).toBe('progress');
    const done = await waitFor(
      () =>
        t.transcript.updates.find(
          (u) => u.card.title === 'Web service of mytool' && u.card.status === 'success',
        ),
      15_000,
    );
    expect(done.card.text).toContain('is running at');
    const web = (await jobs('mytool')).find((j) => j.name === 'web');
    expect(web?.status?.messages?.join(' ')).toMatch(/restarted \(\d+\)/);
    await waitFor(async () => (await visit('mytool')).status === 200, 10_000);
  });

  it('refuses a second published job the way the jobs API does, and starts none', async () => {
    const before = (await jobs('mytool')).length;
    const [card] = await t.say('/webservice start mytool --image python3.11');
    expect(card?.text).toContain('already there (job web)');
    const api = platform.forTool('mytool').jobs;
    await expect(
      api.create({
        name: 'web2',
        cmd: 'web',
        imagename: 'tool-mytool/web:latest',
        job_type: 'continuous',
        port: 8000,
        publish: '/',
      }),
    ).rejects.toThrow(/domain 'mytool.localhost' and path '\/' are already in use/);
    await expect(
      api.create({
        name: 'web3',
        cmd: 'web',
        imagename: 'tool-mytool/web:latest',
        job_type: 'continuous',
        publish: '/',
      }),
    ).rejects.toThrow(/publish requires port to be set/);
    // `publish` takes only "/" (a pydantic pattern, so FastAPI's 422).
    await expect(
      api.create({
        name: 'web4',
        cmd: 'web',
        imagename: 'tool-mytool/web:latest',
        job_type: 'continuous',
        port: 8000,
        publish: 'yes',
      }),
    ).rejects.toThrow(/String should match pattern '\^\/\$'/);
    expect((await jobs('mytool')).length).toBe(before);
  });

  it('starts a web service with the image defaults, stops it after a confirmation', async () => {
    await expectReplies(t, [
      ['/webservice status demo', 'demo has no web service'],
      ['/webservice start demo --image bookworm', 'has no default web command'],
      ['/webservice start demo --image python3.11', 'Started job webservice'],
    ]);
    const created = (await jobs('demo')).find((j) => j.name === 'webservice');
    expect(created).toMatchObject({
      cmd: '/usr/bin/webservice-runner --type uwsgi-python --port $PORT',
      port: 8000,
      publish: '/',
      job_type: 'continuous',
    });
    await waitFor(async () => (await visit('demo')).status === 200, 15_000);

    const [question] = await t.say('/webservice stop demo');
    expect((await jobs('demo')).some((j) => j.name === 'webservice')).toBe(true);
    await t.press(button(question, 'Confirm'));
    expect((await jobs('demo')).some((j) => j.name === 'webservice')).toBe(false);
    expect((await visit('demo')).status).toBe(404);
  });
});

describe('platform health', () => {
  it('shows an unhealthy API in /tool status and says so when a command fails because of it', async () => {
    const [healthy] = await t.say('/tool status demo');
    expect(healthy?.fields?.find((f) => f.label === 'Platform')?.value).toMatch(/^healthy/);
    sandbox.controls.setUnhealthy('jobs', 'etcd is unreachable');
    try {
      const [status] = await t.say('/tool status demo');
      expect(status?.text).toContain('The platform itself reports problems');
      expect(status?.fields?.find((f) => f.label === 'Platform')?.value).toContain('jobs API: unhealthy');
      const [failed] = await t.say('/jobs list demo');
      expect(failed?.text).toContain('etcd is unreachable');
      expect(JSON.stringify(failed)).toContain('platform outage, not a problem with your tool');
    } finally {
      sandbox.controls.setUnhealthy('jobs', undefined);
    }
    const [again] = await t.say('/jobs list demo');
    expect(again?.code?.text).toMatch(/api\s+continuous/);
  });
});
