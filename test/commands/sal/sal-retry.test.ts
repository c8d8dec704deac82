/**
 * A delivery run again after its first attempt finished and stored its change record (the worker died
 * before the queue learnt the job was done, and the queue ran it again): the second attempt is answered
 * as already run and records nothing, so the audit trail and the SAL each show the change once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardSurface } from '../../../src/core/card-surface';
import type { Invocation } from '../../../src/core/command';
import type { Card } from '../../../src/core/reply';
import { startTestApp, type TestApp } from '../../support/app';
import { invocationAt } from '../../support/invocation';
import { MemoryOutbox } from '../../support/sal-outbox';
import { loggedBySal } from '../../support/stashbot-sal';
import { waitFor } from '../../support/wait';

let t: TestApp;
const outbox = new MemoryOutbox();

beforeAll(async () => {
  t = await startTestApp({ SAL_DEFAULT: 'on' });
  t.app.adminLogLink.attach(outbox);
});
afterAll(async () => {
  await t?.close();
});

const invocation: Invocation = {
  ...invocationAt({ platform: 'slack', workspace: 'T1', channel: 'C1' }, 'UADMIN', 'ada'),
  key: 'slack:trigger:retry-1',
};

async function attempt(): Promise<Card[]> {
  const shown: Card[] = [];
  const surface: CardSurface = {
    async reply(card) {
      shown.push(card);
      return { platform: 'slack', conversationId: 'slack:T1:C1', ref: { ts: String(shown.length) } };
    },
    async update() {},
  };
  await t.app.runner.handleText('/jobs restart mytool web', invocation, surface);
  return shown;
}

describe('a delivery run a second time after its change was recorded', () => {
  it('gives one SAL line', async () => {
    const first = await attempt();
    expect(JSON.stringify(first)).toMatch(/web/);
    await waitFor(() => outbox.lines.length === 1 || undefined);
    const second = await attempt();
    expect(JSON.stringify(second)).toMatch(/already ran for this request/);
    // The first attempt's record is there (the read would have seen a second one: same query).
    const records = (await t.app.services.accounts.audit.recent({ tool: 'mytool', limit: 10 })).filter(
      (r) => r.command === 'jobs restart',
    );
    console.info(
      `retried delivery: records ${JSON.stringify(records.map((r) => [r.id, r.outcome]))}; enqueue calls ${outbox.calls}`,
    );
    expect(records.map((r) => r.outcome)).toEqual(['ok']);
    expect(outbox.calls).toBe(1);
    expect(outbox.lines).toHaveLength(1);
    const line = outbox.lines[0]?.line ?? '';
    expect(loggedBySal(line, ['tools.mytool'])).toMatchObject({ project: 'tools.mytool' });
  });
});
