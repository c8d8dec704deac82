/**
 * The Server Admin Log across platforms, through each real adapter and its fake: with mytool's SAL
 * turned on by `/tool sal mytool on` (pressed like any command), 20 state-changing commands pressed on
 * the Slack and Telegram fakes and in the terminal give exactly 20 `!log` lines on the SAL channel,
 * each one that stashbot's own rules (test/support/stashbot-sal.ts) log under `tools.mytool` with the
 * message of that command; its link opens the change page. With the SAL off, a change gives no line
 * while the same change with it on does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageHandle } from '../../../src/core/command';
import { silentLogger } from '../../../src/log';
import { WebServer } from '../../../src/web/server';
import { MemoryOutbox } from '../../support/sal-outbox';
import { loggedBySal } from '../../support/stashbot-sal';
import { waitFor } from '../../support/wait';
import type { ContractDriver } from './driver';
import { shellDriver } from './shell-driver';
import { slackDriver } from './slack-driver';
import { telegramDriver } from './telegram-driver';

const CHANNEL = '#wikimedia-cloud-feed';
const LINK = /\(http:\/\/[^ ]+\/changes\/[\w-]{22}\)$/;

/** One command pressed as a button, and the message stashbot should log for it (who left out). */
interface Step {
  label: string;
  command: string;
  args: Record<string, unknown>;
  message: RegExp;
}

const deploy = (task: string): Step => ({
  label: 'Deploy',
  command: 'deploy',
  args: { tool: 'mytool', description: `Rollout for ${task}` },
  message: new RegExp(`^deployed: Rollout for ${task} `),
});
const lock: Step = {
  label: 'Lock',
  command: 'tool lock',
  args: { tool: 'mytool', reason: ['maintenance'] },
  message: /^locked the tool: maintenance /,
};
const unlock: Step = {
  label: 'Unlock',
  command: 'tool unlock',
  args: { tool: 'mytool' },
  message: /^unlocked the tool /,
};
const restart: Step = {
  label: 'Restart',
  command: 'jobs restart',
  args: { tool: 'mytool', job: 'web' },
  message: /^restarted the job job=web /,
};

const PLAN = [
  {
    name: 'slack',
    start: slackDriver,
    steps: [deploy('T101'), lock, unlock, restart, lock, unlock, restart],
  },
  {
    name: 'telegram',
    start: telegramDriver,
    steps: [deploy('T202'), lock, unlock, restart, lock, unlock, restart],
  },
  { name: 'shell', start: shellDriver, steps: [deploy('T303'), lock, unlock, restart, lock, unlock] },
] as const;

const outbox = new MemoryOutbox();
const drivers: ContractDriver[] = [];

/** Posts a card with one button for `step` and presses it as the admin. */
async function press(
  d: ContractDriver,
  step: { label: string; command: string; args: Record<string, unknown> },
) {
  const handle = (await d.app.publisher.post(d.conversationId, {
    text: `SAL step ${step.label}`,
    actions: [{ label: step.label, command: step.command, args: step.args }],
  })) as MessageHandle;
  await d.press((handle.ref.ts ?? handle.ref.message) as string, step.label, 'admin');
}

/** What stashbot logs of queued line `n` (the test fails when it would not log it). */
function logged(n: number) {
  const queued = outbox.lines[n];
  if (!queued) throw new Error(`no line ${n}`);
  expect(queued.channel).toBe(CHANNEL);
  return loggedBySal(queued.line, ['tools.mytool'], queued.channel);
}

beforeAll(async () => {
  for (const plan of PLAN) {
    const d = await plan.start();
    drivers.push(d);
    d.app.adminLogLink.attach(outbox);
  }
}, 180_000);

afterAll(async () => {
  for (const d of drivers) await d.close();
});

describe('the Server Admin Log across platforms', () => {
  it('20 commands on three platforms give exactly 20 lines, each logged by stashbot as its command', async () => {
    const first = drivers[0] as ContractDriver;
    await press(first, { label: 'SAL on', command: 'tool sal', args: { tool: 'mytool', state: 'on' } });
    await waitFor(() => (first.seen().includes('is now logged as `!log tools.mytool') ? true : undefined));
    for (const d of drivers.slice(1)) await d.app.services.adminLog.set('mytool', true);
    let n = 0;
    for (const [index, plan] of PLAN.entries()) {
      const d = drivers[index] as ContractDriver;
      for (const step of plan.steps) {
        await press(d, step);
        // Each command gives its line before the next is pressed: the lines are in step order.
        await waitFor(() => (outbox.lines.length === n + 1 ? true : undefined), 30_000);
        const out = logged(n);
        expect(out.project).toBe('tools.mytool');
        expect(out.message).toMatch(LINK);
        const who = new RegExp(`^\\S.* \\(${d.platform}\\) `);
        expect(out.message).toMatch(who);
        expect(out.message.replace(who, '')).toMatch(step.message);
        if (step.command === 'deploy')
          expect(out.tasks).toEqual([String(step.args.description).split(' ').at(-1)]);
        n += 1;
      }
      await d.idle();
    }
    expect(n).toBe(20);
    expect(outbox.lines).toHaveLength(20);
    expect(new Set(outbox.lines.map((l) => l.id)).size).toBe(20);
    expect(outbox.calls).toBe(20);
  });

  it("links each line to the change's page", async () => {
    const d = drivers[0] as ContractDriver;
    const web = new WebServer(silentLogger);
    d.app.adminLog.mount(web);
    const port = await web.listen(0, '127.0.0.1');
    try {
      const id = (outbox.lines[1] as { id: string }).id;
      const page = await fetch(`http://127.0.0.1:${port}/changes/${id}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Command: /tool lock');
      expect(html).toContain('maintenance');
      expect((await fetch(`http://127.0.0.1:${port}/changes/${'x'.repeat(22)}`)).status).toBe(404);
    } finally {
      await web.close();
    }
  });

  it('a tool whose SAL is off gets no line; turned on again, the same command gets one', async () => {
    const d = drivers[1] as ContractDriver;
    const before = outbox.lines.length;
    await press(d, { label: 'SAL off', command: 'tool sal', args: { tool: 'mytool', state: 'off' } });
    await waitFor(() => (d.seen().includes('are no longer written to its SAL') ? true : undefined));
    const since = Date.now();
    // The change records of both (written once each answer is shown) are the check's input: each
    // would have given a line with the SAL on.
    const done = async (command: string) =>
      (await d.app.services.accounts.audit.recent({ tool: 'mytool', limit: 5 })).some(
        (r) => r.command === command && r.outcome === 'ok' && r.at >= since,
      ) || undefined;
    await press(d, lock);
    await waitFor(() => done('tool lock'));
    await press(d, unlock);
    await waitFor(() => done('tool unlock'));
    await d.idle();
    const quiet = (await d.app.services.accounts.audit.recent({ tool: 'mytool', limit: 5 })).filter(
      (r) => r.at >= since && r.outcome === 'ok' && r.command !== 'tool sal',
    );
    expect(quiet.map((r) => r.command)).toEqual(['tool unlock', 'tool lock']);
    expect(outbox.lines.length).toBe(before);
    await d.app.services.adminLog.set('mytool', true);
    await press(d, lock);
    await waitFor(() => (outbox.lines.length === before + 1 ? true : undefined), 30_000);
    expect(logged(before).message).toMatch(/ locked the tool: maintenance /);
    await d.idle();
    expect(outbox.lines).toHaveLength(before + 1);
    const ids = new Set(outbox.lines.map((l) => l.id));
    expect(quiet.filter((r) => ids.has(r.id))).toEqual([]);
  });

  it('with the link down, the command is answered and recorded at once; its line arrives once the link is back', async () => {
    const d = drivers[0] as ContractDriver;
    const delivered = new MemoryOutbox();
    const waiting: (() => Promise<void>)[] = [];
    // A link that does not answer: each enqueue waits until the link is back.
    d.app.adminLogLink.attach({
      enqueue: (channel, line, id) =>
        new Promise<void>((resolve) =>
          waiting.push(() => delivered.enqueue(channel, line, id).then(resolve)),
        ),
    });
    try {
      const since = Date.now();
      await d.app.services.adminLog.set('mytool', true);
      const answers = () => d.seen().split('Job web').length;
      const answered = answers();
      await press(d, restart);
      await waitFor(() => answers() > answered || undefined);
      const record = await waitFor(async () =>
        (await d.app.services.accounts.audit.recent({ tool: 'mytool', limit: 5 })).find(
          (r) => r.command === 'jobs restart' && r.outcome === 'ok' && r.at >= since,
        ),
      );
      await d.idle();
      await waitFor(() => waiting.length === 1 || undefined);
      expect(delivered.lines).toEqual([]);
      for (const back of waiting.splice(0)) await back();
      expect(delivered.lines.map((l) => l.id)).toEqual([record.id]);
      expect(delivered.lines[0]?.line).toMatch(/^!log tools\.mytool .* restarted the job job=web /);
    } finally {
      d.app.adminLogLink.attach(outbox);
    }
  });
});
