import { describe, expect, it } from 'vitest';
import { button, startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

let t: TestApp;

useStarted(startTestApp, (started) => {
  t = started;
});

describe('/logs', () => {
  it('shows the latest lines in time order, and More pages back without repeats or gaps', async () => {
    const [first] = await t.say('/logs mytool migrate-db --lines 2');
    const page1 = first?.code?.text.split('\n') ?? [];
    expect(page1).toHaveLength(2);
    expect(page1[1]).toContain('Done.');
    const [second] = await t.press(button(first, 'More (earlier)'));
    const page2 = second?.code?.text.split('\n') ?? [];
    expect(page2).toHaveLength(2);
    expect(page2.some((line) => page1.includes(line))).toBe(false);
    expect(page1[0]).toContain('reports.0008_report_owner');
    expect(page2).toEqual([
      expect.stringContaining('Running migrations:'),
      expect.stringContaining('reports.0007'),
    ]);
  });

  it('reads forward from --since', async () => {
    const [card] = await t.say('/logs mytool migrate-db --since 1h --lines 1');
    expect(card?.code?.text).toContain('Operations to perform:');
    expect(card?.buttons?.[0]?.label).toBe('More (later)');
  });

  it.each([
    ['/logs mytool web --lines -1', /Invalid --lines: must be 1 or more/],
    ['/logs mytool web --since yesterday', /Invalid --since: must be a duration/],
    ['/logs mytool no-such-job', /Job no-such-job not found for tool mytool/],
  ])('%s → a clear message', async (line, expected) => {
    const [card] = await t.say(line);
    expect(card?.text).toMatch(expected);
  });
});

describe('/tool status', () => {
  it('puts the latest build, the latest deployment, every job and quota use on one card', async () => {
    const [card] = await t.say('/tool status mytool');
    const fields = Object.fromEntries((card?.fields ?? []).map((f) => [f.label, f.value]));
    expect(fields['Latest build']).toMatch(/^ok · mytool-buildpacks-pipelinerun-/);
    expect(fields['Latest deployment']).toMatch(/^successful · \d{8}-\d{6}-/);
    expect(fields['Job web']).toMatch(/continuous · running/);
    expect(fields['Job daily-report']).toMatch(/scheduled/);
    expect(fields['Job migrate-db']).toMatch(/one-off · succeeded/);
    expect(fields['Registry / Storage']).toMatch(/used of/);
    expect(fields.Envvars).toMatch(/\d+ of \d+ used/);
    // mytool's web job is published: the card shows its web service and can restart it.
    expect(fields['Web service']).toMatch(/^running.* · job web$/);
    expect(card?.buttons?.map((b) => b.label)).toEqual(['Deploy', 'Jobs', 'Restart web service']);
  });

  it('shows the lock (holder, since, until, reason) and a freeze window; deploys are refused now', async () => {
    await t.say('/tool lock mytool release prep --for 2h', { user: 'UMAINT' });
    await t.say('/tool freeze mytool fri 15:00 - mon 08:00', { user: 'UMAINT' });
    const [card] = await t.say('/tool status mytool');
    const fields = Object.fromEntries((card?.fields ?? []).map((f) => [f.label, f]));
    expect(fields['Locked by']?.value).toBe('UMAINT');
    expect(fields.Since?.time?.at).toBeTypeOf('number');
    expect(fields.Until?.time?.at).toBeTypeOf('number');
    expect(fields.Reason?.value).toBe('release prep');
    expect(fields['Freeze 1']?.value).toMatch(/^fri 15:00 - mon 08:00 \(UTC\), added by UMAINT: /);
    expect(card?.text).toContain('Deploys and destructive commands of mytool are refused now');
    expect(card?.status).toBe('warning');
    await t.say('/tool unlock mytool', { user: 'UMAINT' });
    await t.say('/tool unfreeze mytool 1', { user: 'UMAINT' });
    const [after] = await t.say('/tool status mytool');
    expect(after?.fields?.map((f) => f.label)).not.toContain('Locked by');
    expect(after?.text).not.toContain('refused now');
  });

  it('shows a failing tool in red', async () => {
    const [card] = await t.say('/tool status demo');
    expect(card?.fields?.find((f) => f.label === 'Job backfill')?.value).toMatch(/failed/);
    expect(card?.status).toBe('warning');
  });
});
