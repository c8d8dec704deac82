/**
 * Hints that name the next command: words in the wrong order, a job name that is taken, a one-off
 * job to run again, a deployment without a configuration. Through the real runner on the sandbox.
 */

import { describe, expect, it } from 'vitest';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import { button, type TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

/** What a user reads of the first answer, with the Slack-style `/deckhand ` prefix taken out. */
async function said(line: string): Promise<string> {
  const [card] = await t.say(line);
  return (card?.text ?? '').replaceAll('/deckhand ', '/');
}

describe('words in the wrong order', () => {
  it.each([
    ['/jobs mytool list', 'Did you mean `/jobs list mytool`?'],
    ['/jobs mytool show web', 'Did you mean `/jobs show mytool web`?'],
    ['/logs web mytool', 'Did you mean `/logs mytool web`?'],
    ['/logs web mytool --lines 5', 'Did you mean `/logs mytool web --lines 5`?'],
    ['/jobs show web mytool', 'Did you mean `/jobs show mytool web`?'],
  ])('%s → %s', async (line, guess) => {
    expect(await said(line)).toContain(guess);
  });

  it('a line in the right order gets no such guess', async () => {
    expect(await said('/logs mytool nosuchjob')).not.toContain('Did you mean');
    expect(await said('/jobs show mytool nosuchjob')).not.toContain('Did you mean');
  });
});

describe('hints that name the next command', () => {
  it('a job name that exists points to /jobs update (and changes nothing)', async () => {
    const before = await platform.forTool('mytool').jobs.show('web');
    const text = await said('/jobs run mytool web --command "./other.sh" --image python3.11 --continuous');
    expect(text).toContain('Tool mytool already has a continuous job named web.');
    expect(text).toContain('Change it in place with /jobs update mytool web');
    expect((await platform.forTool('mytool').jobs.show('web')).cmd).toBe(before.cmd);
  });

  it('restarting a one-off job says to run it again with /jobs run', async () => {
    await t.say('/jobs run mytool once-again --command "echo hi" --image python3.11');
    const text = await said('/jobs restart mytool once-again');
    expect(text).toContain('Job once-again of mytool is a one-off job, so it cannot be restarted.');
    expect(text).toContain(
      'Run it again with /jobs run mytool once-again --command "echo hi" --image python3.11 (once it has finished, the new run replaces it).',
    );
  });

  it('/deploy without a configuration points to /config set and /config generate', async () => {
    const [ask] = await t.say('/config delete demo');
    await t.press(button(ask, 'Confirm'));
    await waitFor(async () =>
      platform
        .forTool('demo')
        .components.getConfig()
        .then(
          () => false,
          () => true,
        ),
    );
    const text = await said('/deploy demo');
    expect(text).toContain('demo has no components configuration yet, so there is nothing to deploy.');
    expect(text).toContain('/config set demo');
    expect(text).toContain('/config generate demo');
    expect(await platform.forTool('demo').components.listDeployments()).toEqual([]);
  });
});
