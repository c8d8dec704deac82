/**
 * Scheduled digests in the conversation's language (`/language --here`): the calendar's upcoming
 * events and a tool's past period, as their runs post them.
 */
import { describe, expect, it } from 'vitest';
import { digestSchedulerId } from '../../src/queue/digest-scheduler';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';
import { waitFor } from '../support/wait';

let t: TestApp;
useStarted(startTestApp, (started) => {
  t = started;
});

const CHANNEL = 'slack:T1:C1';

describe('scheduled digests in German', () => {
  it('post the calendar digest in the conversation’s language', async () => {
    await t.say('/language --here de');
    await t.say('/calendar digest --weekly --day fri --at 17:30');
    const stored = await t.app.queues.digest.getJobScheduler(digestSchedulerId(CHANNEL));
    const before = t.transcript.posted.length;
    await t.app.queues.digest.add('digest', stored?.template?.data);
    const posted = await waitFor(() =>
      t.transcript.posted.slice(before).find((card) => card.title === 'Termine in den nächsten 7 Tagen'),
    );
    expect(posted.buttons?.map((b) => b.label)).toEqual(['Alle anstehenden Termine']);
    expect(posted.footer).toContain('wöchentlicher Digest, jeden Freitag um 17:30');
    expect(posted.footer).toContain('digest --off beendet sie');
    await t.say('/calendar digest --off');
  });

  it('post a tool digest in the conversation’s language', async () => {
    await t.say('/subscribe mytool --digest daily@09:00');
    const runAt = Date.parse('2026-10-25T09:00:00Z');
    await t.app.services.accounts.audit.append({
      id: 'deploy-digest-language',
      at: runAt - 3_600_000,
      platform: 'slack',
      user: 'slack:T1:UMAINT',
      name: 'Maintainer',
      conversationId: CHANNEL,
      command: 'deploy',
      tool: 'mytool',
      args: { tool: 'mytool', ref: 'v1' },
      outcome: 'ok',
    });
    const scheduler = await t.app.queues.digest.getJobScheduler(digestSchedulerId(CHANNEL, 'mytool'));
    const before = t.transcript.posted.length;
    await t.app.queues.digest.add('digest', scheduler?.template?.data, {
      jobId: 'digest-language-run',
      prevMillis: runAt,
    });
    const posted = await waitFor(() =>
      t.transcript.posted.slice(before).find((card) => card.title === 'mytool: die letzten 24 Stunden'),
    );
    expect(posted.footer).toContain('täglicher Digest um 09:00');
    expect(posted.footer).toContain('beendet sie');
  });
});
