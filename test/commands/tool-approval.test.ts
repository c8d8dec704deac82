import { afterEach, describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import type { ToolConfig, ToolhostClientFactory } from '../../src/services/toolhost';
import { RedisActionStore } from '../../src/store/actions';
import { button, startTestApp, type TestApp } from '../support/app';
import { invocationAt } from '../support/invocation';
import { useWithToolhostClient } from '../support/toolhost-app';

/** 50 maintainers of mytool besides UMAINT, for the concurrent presses. */
const RACERS = Array.from({ length: 50 }, (_, i) => `URACE${i}`);

let t: TestApp;
let platform: ToolhostClientFactory;

useWithToolhostClient(
  () =>
    startTestApp({
      TOOL_MAINTAINERS: [
        'mytool=slack:UMAINT',
        'mytool=discord:DMAINT',
        ...RACERS.map((u) => `mytool=slack:${u}`),
      ].join(','),
    }),
  (started, client) => {
    t = started;
    platform = client;
  },
);
afterEach(async () => {
  await t.say('/tool unprotect mytool', { user: 'UMAINT' });
});

const deployments = async () => (await platform.forTool('mytool').components.listDeployments()).length;
const isApprovalCard = (card: Card | undefined) => card?.title?.startsWith('Approval needed: /') === true;

/** Presses a button as a Discord user (another platform than the card's). */
async function pressOnDiscord(actionId: string, user: string): Promise<Card[]> {
  const out: Card[] = [];
  const invocation = invocationAt({ platform: 'discord', workspace: 'G1', channel: 'CH1' }, user);
  await t.app.runner.handleAction(actionId, invocation, {
    async reply(card) {
      out.push(card);
      return undefined;
    },
    async update() {},
  });
  return out;
}

/** Protects mytool's deploys and asks for one as UMAINT; resolves with the approval card. */
async function askDeploy(): Promise<Card | undefined> {
  const [protectedCard] = await t.say('/tool protect mytool deploy,envvars,jobs-delete', { user: 'UMAINT' });
  expect(protectedCard?.title).toBe('mytool is protected');
  const [asked] = await t.say('/deploy mytool', { user: 'UMAINT' });
  expect(isApprovalCard(asked)).toBe(true);
  return asked;
}

describe('approvals by a second maintainer', () => {
  it("refuses the requester's own Approve and a non-maintainer's; a maintainer on another platform approves → runs once", async () => {
    const before = await deployments();
    const asked = await askDeploy();
    expect(asked?.text).toContain('UMAINT asks:');
    expect(asked?.buttons?.map((b) => b.label)).toEqual(['Approve', 'Deny']);
    expect(await deployments()).toBe(before);

    const [own] = await t.press(button(asked, 'Approve'), { user: 'UMAINT' });
    expect(own?.text).toContain('You asked for this yourself');
    const [stranger] = await t.press(button(asked, 'Approve'), { user: 'USTRANGER' });
    expect(stranger?.text).toContain('Only maintainers of mytool can approve or deny this');
    expect(await deployments()).toBe(before);

    const ran = await pressOnDiscord(button(asked, 'Approve'), 'DMAINT');
    expect(ran[0]?.title).toBe('Deploy mytool');
    expect(await deployments()).toBe(before + 1);
    const [again] = await pressOnDiscord(button(asked, 'Approve'), 'DMAINT');
    expect(again?.text).toContain('already approved by DMAINT');
    expect(await deployments()).toBe(before + 1);

    // The card shows the decision, edited in place.
    const edited = t.transcript.updates.at(-1)?.card;
    expect(edited?.fields?.find((f) => f.label === 'Approved by')?.value).toBe('DMAINT');
    expect(edited?.buttons ?? []).toEqual([]);
  });

  it("posts the card to the tool's other subscribed conversations too; a decision there edits every copy", async () => {
    const subscriptions = t.app.services.subscriptions;
    await subscriptions.put({
      conversationId: 'slack:T1:C2',
      platform: 'slack',
      tool: 'mytool',
      kinds: ['deploys'],
      failuresOnly: false,
      changesOnly: false,
      createdBy: 'slack:T1:UMAINT',
    });
    try {
      const before = await deployments();
      const posted = t.transcript.posted.length;
      const asked = await askDeploy();
      // The reply here, and one copy posted to the other subscribed conversation.
      const copies = t.transcript.posted.slice(posted).filter(isApprovalCard);
      expect(copies).toHaveLength(2);
      const copy = copies.find((card) => card !== asked);
      expect(copy?.text).toContain('UMAINT asks:');
      const updates = t.transcript.updates.length;
      const ran = await t.press(button(copy, 'Approve'), { user: 'URACE0' });
      expect(ran.find((card) => card.title === 'Deploy mytool')).toBeDefined();
      expect(await deployments()).toBe(before + 1);
      const edits = t.transcript.updates
        .slice(updates)
        .filter((u) => u.card.fields?.some((f) => f.label === 'Approved by' && f.value === 'URACE0'));
      expect(edits.map((u) => u.handle.ref.ts)).toHaveLength(2);
      expect(new Set(edits.map((u) => u.handle.ref.ts)).size).toBe(2);
    } finally {
      await subscriptions.remove('slack:T1:C2', 'mytool');
    }
  });

  it('of 50 maintainers pressing Approve at once, the command runs once and is audited once', async () => {
    const since = Date.now();
    const before = await deployments();
    const asked = await askDeploy();
    const approve = button(asked, 'Approve');
    const answers = await Promise.all(RACERS.map((user) => t.press(approve, { user })));
    const ran = answers.filter(([card]) => card?.title === 'Deploy mytool');
    const refused = answers.filter(([card]) => card?.text?.includes('already approved by'));
    expect(ran).toHaveLength(1);
    expect(refused).toHaveLength(49);
    expect(await deployments()).toBe(before + 1);
    const audited = (await t.app.services.accounts.audit.recent({ tool: 'mytool', limit: 100 })).filter(
      (e) => e.at >= since && e.command === 'deploy',
    );
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ name: 'UMAINT', outcome: 'ok' });
    expect(audited[0]?.args.approvedBy).toMatch(/^URACE\d+$/);
  });

  it('runs nothing once the request has expired, and nothing after a Deny', async () => {
    const before = await deployments();
    const asked = await askDeploy();
    const prefix = t.app.services.config.REDIS_KEY_PREFIX;
    const approve = await new RedisActionStore(t.app.redis.redis, prefix).load(button(asked, 'Approve'));
    expect(await t.app.services.accounts.approvals.load(String(approve?.args.approval))).toMatchObject({
      state: 'open',
      command: 'deploy',
    });
    await t.app.redis.redis.pexpire(`${prefix}approval:{${String(approve?.args.approval)}}`, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [expired] = await t.press(button(asked, 'Approve'), { user: 'URACE1' });
    expect(expired?.text).toContain('This approval has expired; nothing was run.');
    expect(await deployments()).toBe(before);

    const [denyAsked] = await t.say('/deploy mytool', { user: 'UMAINT' });
    const [denied] = await t.press(button(denyAsked, 'Deny'), { user: 'URACE2' });
    expect(denied?.text).toBe('Denied; nothing was run.');
    const [late] = await t.press(button(denyAsked, 'Approve'), { user: 'URACE3' });
    expect(late?.text).toContain('already denied by URACE2');
    expect(await deployments()).toBe(before);
    expect(t.transcript.updates.at(-1)?.card.fields?.find((f) => f.label === 'Denied by')?.value).toBe(
      'URACE2',
    );
  });

  it('asks again when the configuration changed between the request and the approval', async () => {
    await t.say('/tool protect mytool config', { user: 'UMAINT' });
    const client = platform.forTool('mytool');
    const original: ToolConfig = await client.components.getConfig();
    const wanted = structuredClone(original);
    (Object.values(wanted.components)[0] as { run: { command: string } }).run.command = 'wanted';
    const [asked] = await t.say(`/config set mytool --content '${JSON.stringify(wanted)}'`, {
      user: 'UMAINT',
    });
    expect(isApprovalCard(asked)).toBe(true);
    expect(asked?.code?.text).toContain('+ components.');
    const meanwhile = structuredClone(original);
    (Object.values(meanwhile.components)[0] as { run: { command: string } }).run.command = 'meanwhile';
    await client.components.setConfig(meanwhile);

    const [reasked] = await t.press(button(asked, 'Approve'), { user: 'URACE4' });
    expect(isApprovalCard(reasked)).toBe(true);
    expect(reasked?.text).toContain('UMAINT asks:');
    expect(reasked?.code?.text).toContain('meanwhile');
    expect(JSON.stringify(await client.components.getConfig())).toContain('meanwhile');
    expect(t.transcript.updates.at(-1)?.card.text).toContain('the target changed since it was asked');

    const [saved] = await t.press(button(reasked, 'Approve'), { user: 'URACE5' });
    expect(saved?.title).toBe('Configuration of mytool saved');
    expect(JSON.stringify(await client.components.getConfig())).toContain('wanted');
  });

  it('protects only what the policy names, and refuses unknown action words', async () => {
    await t.say('/tool protect mytool jobs-delete', { user: 'UMAINT' });
    const [shown] = await t.say('/tool protect mytool', { user: 'UMAINT' });
    expect(shown?.fields?.[0]?.value).toBe('jobs-delete');
    const before = await deployments();
    const [deployed] = await t.say('/deploy mytool', { user: 'UMAINT' });
    expect(deployed?.title).toBe('Deploy mytool');
    expect(await deployments()).toBe(before + 1);
    const [unknown] = await t.say('/tool protect mytool deploi', { user: 'UMAINT' });
    expect(unknown?.text).toContain('deploi: not a command that changes a tool');
    const [stranger] = await t.say('/tool protect mytool deploy', { user: 'USTRANGER' });
    expect(stranger?.text).toContain('Only maintainers of mytool can do that.');
  });
});
