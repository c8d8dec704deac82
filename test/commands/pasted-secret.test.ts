/**
 * A tool's secret envvar value typed where a name is expected is never echoed back, and the user is
 * told to rotate it; a secret envvar set outside Deckhand is masked in `/logs` from the first look.
 * Through the real runner on the sandbox.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import type { TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

const shown = (cards: Card[]) => JSON.stringify(cards);

describe('a secret typed where a name is expected', () => {
  it.each([['/envvars show mytool %s'], ['/logs mytool %s']])(
    '%s in a channel: not echoed, refused as a pasted secret with advice to rotate',
    async (pattern) => {
      const secret = `Pw${randomBytes(10).toString('hex')}`;
      await t.say(`/envvars set mytool PASTED_TOKEN ${secret}`, { private: true });
      const line = pattern.replace('%s', secret);
      const cards = await t.say(line);
      expect(shown(cards)).not.toContain(secret);
      expect(cards[0]?.text).toContain('holds the value of a secret Deckhand keeps');
      expect(cards[0]?.text).toContain('treat it as leaked and rotate it');
    },
  );

  it('an ordinary wrong name is still echoed in the usage error (the check finds only secrets)', async () => {
    const cards = await t.say('/logs mytool no-such-job-here');
    expect(shown(cards)).toContain('no-such-job-here');
    expect(cards[0]?.text).not.toContain('holds the value of a secret');
  });
});

describe('secret envvars set outside Deckhand', () => {
  it('are masked in /logs at the first look, without anyone listing envvars', async () => {
    const secret = `Ext${randomBytes(10).toString('hex')}`;
    const client = platform.forTool('mytool');
    await client.envvars.set('OUTSIDE_API_KEY', secret);
    await client.jobs.create({
      job_type: 'continuous',
      name: 'outside-print',
      cmd: `yes using ${secret} now`,
      imagename: 'python3.11',
      filelog: false,
    });
    // Looked at until the job has printed (a look just after its creation shows only that); the
    // secret is in none of the looks, the first one included.
    const looks: Card[][] = [];
    const logs = await waitFor(async () => {
      const cards = await t.say('/logs mytool outside-print --lines 5');
      looks.push(cards);
      return cards[0]?.code?.text?.includes(' now') ? cards : undefined;
    }, 60_000);
    expect(logs[0]?.code?.text).toContain('using [redacted] now');
    expect(shown(looks.flat())).not.toContain(secret);
  });
});
