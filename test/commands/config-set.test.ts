import { describe, expect, it } from 'vitest';
import type { ToolConfig, ToolhostClientFactory } from '../../src/services/toolhost';
import { button, type TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

const stored = () => platform.forTool('mytool').components.getConfig();

describe('/config generate → Save → /config set', () => {
  it('asks first with the diff against the stored configuration, then saves exactly the generated one', async () => {
    // The stored configuration differs from what the jobs give (someone changed a command).
    const client = platform.forTool('mytool');
    const drifted = structuredClone(await client.components.getConfig());
    (Object.values(drifted.components)[0] as { run: { command: string } }).run.command = 'old-command';
    await client.components.setConfig(drifted);
    const before = await stored();
    const [generated] = await t.say('/config generate mytool', { user: 'UMAINT' });
    expect(generated?.buttons?.map((b) => b.label)).toEqual(['Save']);
    const [ask] = await t.press(button(generated, 'Save'), { user: 'UMAINT' });
    expect(ask?.title).toBe('Please confirm');
    expect(ask?.text).toBe('Save this components configuration for mytool? The changes are below.');
    expect(ask?.code?.text).toMatch(/^- components\.\S+\.run\.command: old-command$/m);
    expect(ask?.code?.text).toMatch(/^\+ components\.\S+\.run\.command: /m);
    expect(await stored()).toEqual(before);
    const [saved] = await t.press(button(ask, 'Confirm'), { user: 'UMAINT' });
    expect(saved?.title).toBe('Configuration of mytool saved');
    expect(saved?.buttons?.map((b) => b.label)).toEqual(['Deploy']);
    const generatedNow = await platform.forTool('mytool').components.generateConfig();
    expect(await stored()).toEqual(generatedNow);
  });

  it('says there is nothing to save when the stored configuration is already that', async () => {
    const [generated] = await t.say('/config generate mytool', { user: 'UMAINT' });
    const [answer] = await t.press(button(generated, 'Save'), { user: 'UMAINT' });
    expect(answer?.text).toContain('is already exactly this: nothing to save.');
  });

  it('refuses the Confirm when the configuration changed after the question, and keeps the newer one', async () => {
    const client = platform.forTool('mytool');
    const original: ToolConfig = await client.components.getConfig();
    const changed = structuredClone(original);
    const first = Object.values(changed.components)[0] as { run: { command: string } };
    first.run.command = 'changed-by-someone-else';
    const [ask] = await t.say(`/config set mytool --content '${JSON.stringify(changed)}'`, {
      user: 'UMAINT',
    });
    expect(ask?.code?.text).toContain('+ components.');
    const meanwhile = structuredClone(original);
    (Object.values(meanwhile.components)[0] as { run: { command: string } }).run.command = 'meanwhile';
    await client.components.setConfig(meanwhile);
    const [refused] = await t.press(button(ask, 'Confirm'), { user: 'UMAINT' });
    expect(refused?.text).toContain('changed after you were asked to confirm, so nothing was done');
    expect(JSON.stringify(await stored())).toContain('meanwhile');
  });

  it('refuses a stranger before asking anything', async () => {
    const [generated] = await t.say('/config generate mytool', { user: 'USTRANGER' });
    const [refused] = await t.press(button(generated, 'Save'), { user: 'USTRANGER' });
    expect(refused?.text).toContain('Only maintainers of mytool');
  });

  it("without a file, says how to attach one on the reader's platform", async () => {
    const [card] = await t.say('/config set mytool', { user: 'UMAINT' });
    expect(card?.text).toContain('Attach a toolforge.yaml (or JSON) file to save.');
    expect(card?.text).toContain(
      'Share the file with Deckhand in a direct message with the text `config set`.',
    );
    expect(card?.text).not.toContain('--file PATH');
  });
});
