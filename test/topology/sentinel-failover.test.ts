/**
 * Deckhand on a Sentinel group (1 master, 1 replica, 3 sentinels, real redis-server processes): the
 * master is killed while commands arrive at 20 a second. Every command is answered — run, or told
 * "nothing was done" — none runs twice, none runs after being told it was not done, and the commands
 * after the failover run without a restart. The follow time is printed (figures, not asserted).
 */

import type { ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { jobsRuntimeOf } from '@deckhand/sandbox/toolhost/jobs-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCheck } from '../../src/cli/doctor/check';
import { redisChecks } from '../../src/cli/doctor/redis-checks';
import { loadConfig } from '../../src/config';
import { type SlackBot, startSlackBot, USERS } from '../fakes/slack/harness';
import { type SentinelGroup, startSentinelGroup } from '../support/redis-topologies';
import { waitFor } from '../support/wait';
import { commandOutcomes } from './outcomes';

let group: SentinelGroup;
let slack: SlackBot;

beforeAll(async () => {
  group = await startSentinelGroup(1000);
  slack = await startSlackBot({
    env: { REDIS_URL: `redis+sentinel://${group.sentinels.join(',')}/${group.name}` },
  });
}, 90_000);

afterAll(async () => {
  await slack?.close();
  await group?.stop();
});

const restarts = () =>
  jobsRuntimeOf((slack.app.emulators.toolhost as ToolhostSandbox).ctx).get('mytool', 'web')?.restarts ?? 0;

describe('a Sentinel failover under load', () => {
  it('doctor reports the Sentinel master and its replica', async () => {
    const config = loadConfig({
      REDIS_SENTINELS: group.sentinels.join(','),
      REDIS_SENTINEL_NAME: group.name,
    });
    const lines = (await redisChecks(config)).map(renderCheck);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^✓ Redis topology: Sentinel group "${group.name}": master at .*:${await group.masterPort()} \\(found through 3 sentinel\\(s\\)\\), 1 replica\\(s\\)\\.$`,
        ),
      ),
    );
    expect(lines).toContain('✓ Redis keys: the keys under "dh:" fit this topology.');
  });

  it('follows the new master; every command answered once, none run twice or after its "nothing was done"', async () => {
    const first = await group.masterPort();
    const before = restarts();
    const sent: { channel: string; responseId: string; at: number }[] = [];
    let killedAt = 0;
    let promotedAt = 0;
    let followedAt = 0;
    // What the request path's connection went through after the kill (said when it never followed).
    const requests = slack.app.redis.requests;
    const seen: string[] = [];
    const note = (what: string) => {
      if (killedAt && seen.length < 40) seen.push(`${Date.now() - killedAt} ms ${what}`);
    };
    for (const event of ['close', 'reconnecting', 'connect', 'ready', 'end'])
      requests.on(event, () => note(`${event} (${requests.status})`));
    requests.on('error', (error: Error) => note(`error ${error.message}`));
    requests.on('sentinelError', (error: Error) => note(`sentinel ${error.message}`));
    // At least 240 commands, 20 a second, and on until 20 were typed after the follow: a busy machine's
    // sentinels may take longer to promote the replica (a wait on the condition, not a time bound).
    const typedAfterFollow = () => sent.filter((s) => followedAt && s.at > followedAt + 500).length;
    for (let i = 0; i < 240 || (typedAfterFollow() < 20 && i < 2400); i++) {
      const channel = `C0SF${i}`;
      const fields = slack.driver.commandFields(USERS.admin, channel, '/jobs restart mytool web');
      sent.push({
        channel,
        responseId: (fields.response_url as string).split('/response/')[1] as string,
        at: Date.now(),
      });
      void slack.driver.sendCommand(fields).catch(() => undefined);
      if (i === 40) {
        killedAt = Date.now();
        void group.nodes[0]?.kill('SIGKILL');
        // Followed once the request path's connection writes to the new master.
        void (async () => {
          while (!followedAt) {
            // Promoted (the sentinels name another master) and followed (Deckhand writes to it) are
            // told apart, so a failure says which of the two did not happen.
            try {
              if (!promotedAt && (await group.masterPort()) !== first) promotedAt = Date.now();
            } catch {
              // no sentinel answered yet
            }
            try {
              await slack.app.redis.requests.set(`${slack.config.REDIS_KEY_PREFIX}probe`, '1');
              if (promotedAt) followedAt = Date.now();
            } catch {
              // not yet
            }
            await new Promise((resume) => setTimeout(resume, 50));
          }
        })();
      }
      await new Promise((resume) => setTimeout(resume, 50));
    }
    const outcomes = await waitFor(
      () => {
        const found = commandOutcomes(slack, sent);
        return found.every((o) => o.answered) ? found : undefined;
      },
      90_000,
      200,
    );
    await slack.settled();
    const total = sent.length;
    const refused = outcomes.filter((o) => o.refused).length;
    const expectedRuns = total - refused - outcomes.filter((o) => o.notSent).length;
    // On a busy machine the worker may still be working through the commands queued across the
    // failover: wait until as many ran as should (a condition, not a time bound), then wait out a
    // reconnect back-off, so a command parked somewhere and run twice or after its refusal shows.
    await waitFor(() => restarts() - before >= expectedRuns, 120_000, 200).catch(() => undefined);
    await new Promise((resume) => setTimeout(resume, 5000));
    const ran = restarts() - before;
    const lastRefusedAt = Math.max(0, ...outcomes.filter((o) => o.refused).map((o) => o.at));
    const afterFollow = outcomes.filter((o) => followedAt && o.at > followedAt + 500);
    console.log(
      `sentinel failover: promoted ${promotedAt ? promotedAt - killedAt : 'never'} ms, followed ${followedAt ? followedAt - killedAt : 'never'} ms after the kill; ${total} commands, ${ran} ran, ${refused} refused, ${outcomes.filter((o) => o.notSent).length} not sent, last refused typed ${lastRefusedAt ? lastRefusedAt - killedAt : 0} ms after the kill`,
    );
    expect(
      followedAt,
      `the request connection after the kill: ${seen.join('; ')}; now ${requests.status}`,
    ).toBeGreaterThan(0);
    expect(await group.masterPort()).not.toBe(first);
    // Every command ran exactly once or was refused: none twice, none after its refusal, none lost.
    expect(ran).toBe(expectedRuns);
    expect(outcomes.every((o) => !(o.refused && o.ranCard))).toBe(true);
    // The commands typed after the failover run.
    expect(afterFollow.length).toBeGreaterThan(0);
    expect(afterFollow.filter((o) => o.refused)).toEqual([]);
  }, 300_000);
});
