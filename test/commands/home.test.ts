/**
 * `/me` through the real runner on the sandbox: a maintainer sees their tools with status chips, the
 * lock they hold, the approvals another person asked for on their tool and the failure they are on
 * — and not the ones that are someone else's; a person with nothing linked is told what to link and
 * how; the view reads at most three tool-platform requests per tool, however many tools there are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../../src/core/approvals';
import type { Card } from '../../src/core/reply';
import type { WatchEvent } from '../../src/core/watch';
import { startTestApp, type TestApp } from '../support/app';
import { linkDirectly, slackUser } from '../support/oauth-web';
import { useStarted } from '../support/started';

const now = Date.now();

function approval(id: string, requester: string, tool = 'mytool'): ApprovalRecord {
  return {
    id,
    tool,
    command: 'deploy',
    requester: { platform: 'slack', id: requester, name: `name-${requester}`, workspace: 'T1' },
    conversationId: 'slack:T1:C1',
    args: JSON.stringify({ tool }),
    question: `Deploy ${tool}?`,
    approvers: 1,
    expiresAt: now + 600_000,
    state: 'open',
    decisions: [],
  };
}

function failure(job: string): WatchEvent {
  return {
    tool: 'mytool',
    kind: 'job',
    id: job,
    from: 'running',
    to: 'failed',
    at: now,
    detail: `job ${job} failed`,
    outcome: 'failure',
    terminal: true,
    claim: { scope: { tool: 'mytool', job }, everyOutcome: true },
  };
}

/** Every line of a card's fields, by field label. */
function section(card: Card | undefined, label: string): string {
  return card?.fields?.find((field) => field.label === label)?.value ?? `(no ${label} section)`;
}

describe('/me', () => {
  let t: TestApp;
  useStarted(startTestApp, (started) => {
    t = started;
  });

  it("shows a maintainer's tools with chips, their lock, the approvals and the failures waiting for them", async () => {
    const { approvals, guards, failures } = t.app.services.accounts;
    await approvals.open(approval('homeasked', 'UOTHER'));
    await approvals.open(approval('homeown', 'UMAINT'));
    await approvals.open({ ...approval('homeclosed', 'UOTHER'), state: 'denied' });
    const mine = { tool: 'mytool', holder: 'slack:T1:UMAINT', name: 'max', conversationId: 'slack:T1:C1' };
    await guards.lock(
      { ...mine, reason: 'release prep', since: now, until: now + 3_600_000 },
      { take: false },
    );
    for (const job of ['web', 'cron']) expect(await failures.gate(failure(job))).toBe('announce');
    await failures.claim(
      { tool: 'mytool', job: 'web' },
      { holder: 'slack:T1:UMAINT', name: 'max', since: now },
    );
    await failures.claim(
      { tool: 'mytool', job: 'cron' },
      { holder: 'slack:T1:UOTHER', name: 'o', since: now },
    );

    const [card, ...rest] = await t.say('/me', { user: 'UMAINT' });
    expect(rest).toEqual([]);
    expect(card?.visibility).toBe('private');
    expect(section(card, 'Your tools')).toMatch(/^mytool: \[(ok|deploying|warning|failing)\]/);
    expect(section(card, 'Locks you hold')).toMatch(
      /^mytool: until .*\("release prep"\) · \/deckhand tool unlock mytool$/,
    );
    // Only the request someone else made and nobody closed.
    expect(section(card, 'Approvals waiting for you')).toMatch(
      /^mytool: \/deckhand deploy asked by name-UOTHER, expires in /,
    );
    expect(section(card, 'Approvals waiting for you').split('\n')).toHaveLength(1);
    expect(section(card, 'Failures you are on')).toMatch(/^mytool job web: since /);
    expect(section(card, 'Failures you are on')).not.toContain('cron');
    expect(section(card, 'Linked accounts')).toContain('nothing linked');

    // The person who asked sees none of their own requests waiting; the other's claim is theirs.
    const [theirs] = await t.say('/me', { user: 'UOTHER' });
    expect(section(theirs, 'Approvals waiting for you')).toBe('none');

    await guards.unlock('mytool');
    await failures.release({ tool: 'mytool', job: 'web' });
    await failures.release({ tool: 'mytool', job: 'cron' });
  });

  it('tells a person with nothing linked what to link and how, and shows no tools', async () => {
    const [card] = await t.say('/me', { user: 'UNOBODY' });
    expect(card?.text).toContain('Deckhand does not know any tool of yours yet');
    expect(card?.text).toContain('link source');
    expect(card?.text).toContain('link tool <tool>');
    expect(section(card, 'Your tools')).toBe('none yet');
    expect(section(card, 'Linked accounts')).toContain('link source');
    expect(card?.visibility).toBe('private');
  });

  it('shows the notification settings /notify keeps, as they change', async () => {
    const [before] = await t.say('/me', { user: 'UNOTIFY' });
    expect(section(before, 'Your notifications')).toContain('Quiet hours: none');
    await t.say('/notify quiet 22:00-07:00 --zone Europe/Berlin', { user: 'UNOTIFY' });
    await t.say('/notify me off', { user: 'UNOTIFY' });
    const [after] = await t.say('/me', { user: 'UNOTIFY' });
    expect(section(after, 'Your notifications')).toContain('Direct messages: off');
    expect(section(after, 'Your notifications')).toContain('Quiet hours: 22:00–07:00 (Europe/Berlin)');
  });

  it('shows the tools their linked source-host account may push to as theirs; without push, none', async () => {
    await linkDirectly(t.app, slackUser('UPUSHER'), 'mona', ['read:user']);
    await linkDirectly(t.app, slackUser('UREADONLY'), 'hubot', ['read:user']);
    const [pusher] = await t.say('/me', { user: 'UPUSHER' });
    expect(section(pusher, 'Your tools')).toMatch(/^mytool: \[(ok|deploying|warning|failing)\]/m);
    expect(section(pusher, 'Your tools')).not.toContain('deploy token linked');
    expect(section(pusher, 'Linked accounts')).toContain('Source host: mona');
    const [reader] = await t.say('/me', { user: 'UREADONLY' });
    expect(section(reader, 'Your tools')).toBe('none yet');
    expect(reader?.text).toContain('your linked source-host account hubot may push to no known tool');
    expect(section(reader, 'Linked accounts')).toContain('Source host: hubot');
  });

  it('shows a linked deploy token as a tool of theirs, and never the token', async () => {
    await t.app.services.accounts.credentials.save(
      { platform: 'slack', workspace: 'T1', id: 'ULINKED' },
      'tool',
      { token: 'home-test-token-0123456789' },
      'demo',
    );
    const [card] = await t.say('/me', { user: 'ULINKED' });
    expect(section(card, 'Your tools')).toMatch(/^demo: \[\w+\].* \(deploy token linked\)$/);
    expect(section(card, 'Linked accounts')).toContain('Deploy token of demo: stored');
    expect(JSON.stringify(card)).not.toContain('home-test-token-0123456789');
  });
});

describe('/me requests', () => {
  let t: TestApp;
  const others = Array.from({ length: 10 }, (_, i) => `tool${String(i).padStart(2, '0')}`);
  beforeAll(async () => {
    t = await startTestApp({
      TOOL_MAINTAINERS: ['mytool', 'demo', ...others].map((tool) => `${tool}=slack:UMANY`).join(','),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('are at most three a tool, for at most eight tools, however many a person maintains', async () => {
    const toolhost = t.app.emulators.toolhost;
    if (!toolhost) throw new Error('the test needs the tool platform emulator');
    const carried = () => toolhost.controls.carried('GET', /./) + toolhost.controls.carried('POST', /./);
    const before = carried();
    const [card] = await t.say('/me', { user: 'UMANY' });
    const requests = carried() - before;
    const lines = section(card, 'Your tools').split('\n');
    // Eight tools shown (two exist on the emulator, so two chips come from it), four left out.
    expect(lines).toHaveLength(9);
    expect(lines.at(-1)).toBe('and 4 more tools: /deckhand tool status <tool> shows any of them');
    expect(
      lines.filter((line) => /^(demo|mytool): \[(ok|deploying|warning|failing)\]/.test(line)),
    ).toHaveLength(2);
    expect(requests).toBeGreaterThan(0);
    expect(requests).toBeLessThanOrEqual(3 * 2);
  });
});
