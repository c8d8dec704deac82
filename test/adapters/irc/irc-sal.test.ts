/**
 * The Server Admin Log over a real IRC network (test/support/irc-sal-rig.ts): changes typed on IRC
 * (run by worker processes) and in the terminal become `!log tools.<tool> …` lines the bot says in the
 * SAL channel, seen by a listener there and checked with stashbot's own rules; a worker killed
 * mid-command still gives one line; with the IRC network down, commands are answered at once and
 * their lines arrive, once each, when it is back. Commands typed in the SAL channel are not answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS, SAL, type SalRig, startSalRig } from '../../support/irc-sal-rig';
import { waitFor } from '../../support/wait';

const RESTART = /^\/jobs\/v1\/tool\/mytool\/jobs\/web\/restart$/;

/** One command, where it is typed, and the message stashbot should log for it (after who). */
interface Step {
  on: 'irc' | 'shell';
  text: string;
  message: RegExp;
}

const lock = (on: Step['on']): Step => ({
  on,
  text: 'tool lock mytool maintenance',
  message: /^locked the tool: maintenance \(/,
});
const unlock = (on: Step['on']): Step => ({
  on,
  text: 'tool unlock mytool',
  message: /^unlocked the tool \(/,
});
const restart = (on: Step['on']): Step => ({
  on,
  text: 'jobs restart mytool web',
  message: /^restarted the job job=web \(/,
});
const cycle = (on: Step['on']) => [lock(on), unlock(on), restart(on)];

const PLAN: Step[] = [
  {
    on: 'irc',
    text: 'deploy mytool --description "Rollout for T101"',
    message: /^deployed: Rollout for T101 \(/,
  },
  ...cycle('irc'),
  ...cycle('shell'),
  ...cycle('irc'),
  ...cycle('shell'),
  ...cycle('irc'),
  lock('shell'),
  unlock('shell'),
  lock('irc'),
  unlock('irc'),
];

let rig: SalRig;
/** The transcript printed at the end: what the listener saw in the SAL channel. */
const transcript = () => rig.sal.map((s) => s.raw).join('\n');

beforeAll(async () => {
  rig = await startSalRig();
}, 180_000);

afterAll(async () => {
  if (rig) console.info(`SAL channel as the listener saw it:\n${transcript()}`);
  await rig?.close();
}, 60_000);

/** Waits until the listener has seen `n` lines, then checks line `n - 1` as stashbot would take it. */
async function lineLogged(n: number, who: string, message: RegExp) {
  await waitFor(() => (rig.sal.length >= n ? true : undefined), 60_000);
  const out = rig.sal[n - 1]?.outcome;
  if (out?.kind !== 'logged') throw new Error(`stashbot would not log line ${n}: ${JSON.stringify(out)}`);
  expect(out.project).toBe('tools.mytool');
  expect(out.message.startsWith(`${who} `)).toBe(true);
  expect(out.message.slice(who.length + 1)).toMatch(message);
  expect(out.message).toMatch(/\(http:\/\/127\.0\.0\.1:\d+\/changes\/[\w-]{22}\)$/);
  return out;
}

/** The queues are empty: every command finished and every IRC line went out. */
async function settled() {
  const app = rig.deckhand.app;
  await waitFor(async () => (await app.queues.commands.getActiveCount()) === 0 || undefined, 60_000, 50);
  await waitFor(async () => (await app.outbox('irc').waiting()) === 0 || undefined, 60_000, 50);
}

const bot = () => rig.deckhand.adapter.link?.client.user.nick as string;

describe('the Server Admin Log on a real IRC network', () => {
  it('answers nothing typed in the SAL channel, which it joined by itself', async () => {
    const { owner } = rig;
    expect(rig.deckhand.config.IRC_CHANNELS).toEqual([OPS]);
    await owner.join(SAL);
    owner.say(SAL, '!tool lock mytool typed in the feed');
    owner.say(SAL, `${bot()}: help`);
    // Positive control: the same person's help in the ops channel is answered (in private).
    owner.say(OPS, '!help tool lock');
    await waitFor(() => owner.linesFrom(bot()).some((l) => l.includes('tool lock')) || undefined, 30_000);
    await settled();
    expect(owner.linesFrom(bot(), SAL)).toEqual([]);
    // Not locked: no SAL line, and the audit trail holds no lock.
    expect(rig.sal).toEqual([]);
    const audit = await rig.deckhand.app.services.accounts.audit.recent({ tool: 'mytool', limit: 5 });
    expect(audit.filter((r) => r.command === 'tool lock')).toEqual([]);
  });

  it('20 changes typed on IRC and in the terminal give exactly 20 lines, each logged by stashbot', async () => {
    const { owner, shell } = rig;
    for (const [i, step] of PLAN.entries()) {
      if (step.on === 'irc') owner.say(OPS, `!${step.text}`);
      else await shell.runLine(`/${step.text}`);
      const who = step.on === 'irc' ? `${owner.account} (irc)` : 'operator (shell)';
      const out = await lineLogged(i + 1, who, step.message);
      if (step.text.startsWith('deploy')) {
        expect(out.tasks).toEqual(['T101']);
        await waitFor(
          () => owner.linesFrom(bot(), OPS).find((l) => /\[done\]\x02 Deploy mytool/.test(l)),
          60_000,
        );
      }
    }
    await settled();
    expect(rig.sal).toHaveLength(20);
    expect(new Set(rig.sal.map((s) => s.raw)).size).toBe(20);
    expect(rig.sal.filter((s) => s.outcome.kind === 'logged')).toHaveLength(20);
  }, 300_000);

  it('a worker SIGKILLed mid-command still gives one line', async () => {
    const before = rig.sal.length;
    const held = rig.sandbox.controls.holdNext('POST', RESTART);
    rig.owner.say(OPS, '!jobs restart mytool web');
    await held.arrived;
    const killed = rig.current().child;
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    held.release();
    await rig.nextWorker();
    await lineLogged(before + 1, `${rig.owner.account} (irc)`, /^restarted the job job=web \(/);
    await settled();
    expect(rig.sal).toHaveLength(before + 1);
  }, 120_000);

  it('with the network down, commands are answered at once; their lines arrive once it is back, once each', async () => {
    const before = rig.sal.length;
    const link = rig.deckhand.adapter.link;
    rig.proxy.down = true;
    await rig.network.stopIrcd();
    await waitFor(() => link?.connected === false || undefined, 30_000);
    const steps = [lock('shell'), unlock('shell'), restart('shell')];
    const took: number[] = [];
    for (const step of steps) {
      const printed = rig.prints.length;
      const start = Date.now();
      await rig.shell.runLine(`/${step.text}`);
      took.push(Date.now() - start);
      expect(rig.prints.slice(printed).join('')).toMatch(/locked|unlocked|restarted/i);
    }
    console.info(`answered with the IRC network down in ${took.join(', ')} ms`);
    // Answered while the link was still down, with their lines waiting in the IRC outbox.
    expect(link?.connected).toBe(false);
    expect(await rig.deckhand.app.outbox('irc').waiting()).toBeGreaterThanOrEqual(1);
    expect(rig.sal).toHaveLength(before);
    await rig.network.startIrcd();
    await rig.listen();
    rig.proxy.down = false;
    for (const [i, step] of steps.entries())
      await lineLogged(before + i + 1, 'operator (shell)', step.message);
    await settled();
    expect(rig.sal).toHaveLength(before + 3);
    expect(new Set(rig.sal.map((s) => s.raw)).size).toBe(rig.sal.length);
  }, 180_000);
});
