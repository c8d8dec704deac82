/**
 * Destructive confirmations act on the exact target their question names: the
 * target is resolved (`latest` → id) and checked before asking, and Confirm acts on that target
 * only, or says it is gone or changed and does nothing.
 */

import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import { button, type TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

const mytool = () => platform.forTool('mytool');
const isPrompt = (card: Card | undefined) =>
  card?.title === 'Please confirm' && (card.buttons ?? []).some((b) => b.label === 'Confirm');

describe('a confirmation binds the exact resource', () => {
  it('delete latest, then a newer deployment, then Confirm → the one named in the question is deleted', async () => {
    const before = await mytool().components.latestDeployment();
    const [ask] = await t.say('/deployment delete mytool latest');
    expect(isPrompt(ask)).toBe(true);
    expect(ask?.text).toContain(`Delete deployment ${before.deploy_id} of mytool?`);

    const newer = await mytool().components.createDeployment({ description: 'started after the question' });
    expect(newer.deploy_id).not.toBe(before.deploy_id);
    expect((await mytool().components.latestDeployment()).deploy_id).toBe(newer.deploy_id);

    const [done] = await t.press(button(ask, 'Confirm'));
    expect(done?.text).toBe(`Deleted deployment ${before.deploy_id} of mytool.`);
    await expect(mytool().components.showDeployment(before.deploy_id)).rejects.toThrow(/not found/i);
    await expect(mytool().components.showDeployment(newer.deploy_id)).resolves.toMatchObject({
      deploy_id: newer.deploy_id,
    });
    // Let the new deployment finish, so the other tests see a quiet tool.
    await waitFor(
      async () =>
        !['pending', 'running'].includes((await mytool().components.showDeployment(newer.deploy_id)).status),
      30_000,
      50,
    );
  });

  it.each([
    ['/jobs flush nosuchtool', /Tool nosuchtool does not exist/],
    ['/jobs delete mytool nosuchjob', /Job nosuchjob of mytool does not exist/],
    [
      '/deployment delete mytool 20200101-000000-aaaaaaaaaa',
      /Deployment 20200101-000000-aaaaaaaaaa of mytool does not exist/,
    ],
    [
      '/build delete mytool mytool-buildpacks-pipelinerun-zzzzz',
      /Build mytool-buildpacks-pipelinerun-zzzzz of mytool does not exist/,
    ],
    ['/envvars delete mytool NOPE_NOT_HERE', /Environment variable NOPE_NOT_HERE of mytool does not exist/],
  ])('%s → "does not exist", without a confirmation prompt', async (line, expected) => {
    const cards = await t.say(line);
    expect(cards).toHaveLength(1);
    expect(cards[0]?.text).toMatch(expected);
    expect(cards[0]?.buttons ?? []).toEqual([]);
    expect(cards.some(isPrompt)).toBe(false);
  });

  it('asks for a target that exists (positive control of the above)', async () => {
    const [ask] = await t.say('/jobs delete mytool web');
    expect(isPrompt(ask)).toBe(true);
    expect(ask?.text).toBe('Stop and delete job web of mytool?');
    const [cancelled] = await t.press(button(ask, 'Cancel'));
    expect(cancelled?.text).toContain('Cancelled');
  });

  it('a job recreated with another definition before Confirm is not deleted; the same job is', async () => {
    await t.say('/jobs run mytool recreated --command ./first.sh --image python3.11');
    const [ask] = await t.say('/jobs delete mytool recreated');
    expect(isPrompt(ask)).toBe(true);
    await mytool().jobs.delete('recreated');
    await mytool().jobs.create({
      name: 'recreated',
      cmd: './second.sh',
      imagename: 'python3.11',
      job_type: 'one-off',
    });

    const [refused] = await t.press(button(ask, 'Confirm'));
    expect(refused?.text).toMatch(
      /Job recreated of mytool changed after you were asked to confirm, so nothing was done/,
    );
    expect((await mytool().jobs.show('recreated')).cmd).toBe('./second.sh');

    const [again] = await t.say('/jobs delete mytool recreated');
    const [deleted] = await t.press(button(again, 'Confirm'));
    expect(deleted?.status).toBe('success');
    await expect(mytool().jobs.show('recreated')).rejects.toThrow(/not found/i);
  });

  it('a job deleted before Confirm is said not to exist', async () => {
    await t.say('/jobs run mytool gone --command ./x.sh --image python3.11');
    const [ask] = await t.say('/jobs delete mytool gone');
    await mytool().jobs.delete('gone');
    const [answer] = await t.press(button(ask, 'Confirm'));
    expect(answer?.text).toMatch(/Job gone of mytool does not exist/);
  });

  it('/jobs flush names the jobs it will delete, and refuses when the set changed', async () => {
    const demo = platform.forTool('demo');
    const [ask] = await t.say('/jobs flush demo');
    expect(ask?.text).toContain('EVERY job of demo (3: api, backfill, nightly)');
    await demo.jobs.create({ name: 'late', cmd: './late.sh', imagename: 'python3.11', job_type: 'one-off' });
    const [refused] = await t.press(button(ask, 'Confirm'));
    expect(refused?.text).toMatch(/The set of jobs of demo changed after you were asked/);
    expect((await demo.jobs.list()).map((j) => j.name).sort()).toEqual([
      'api',
      'backfill',
      'late',
      'nightly',
    ]);

    const [again] = await t.say('/jobs flush demo');
    expect(again?.text).toContain('(4: api, backfill, late, nightly)');
    await t.press(button(again, 'Confirm'));
    await waitFor(async () => (await demo.jobs.list()).length === 0);
    const [nothing] = await t.say('/jobs flush demo');
    expect(isPrompt(nothing)).toBe(false);
    expect(nothing?.text).toBe('demo has no jobs, so there is nothing to delete.');
  });
});
