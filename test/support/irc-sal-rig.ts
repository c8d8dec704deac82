/**
 * The Server Admin Log over a real IRC network: InspIRCd + Atheme, the toolhost sandbox, Deckhand's
 * `--role web` process here (the IRC connection, reached through a proxy the test can turn off, and
 * the terminal chat) and `--role worker` processes (test/support/platform-worker.ts) that run the
 * commands typed on IRC. A listener in the SAL channel records every line as stashbot receives it.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { ShellAdapter } from '../../adapters/shell/shell-adapter';
import { type IrcDeckhand, startIrcDeckhand } from './irc-deckhand';
import { startTestIrcNetwork, type TestIrcNetwork } from './irc-network';
import { connectHuman, type Human, identifiedHuman } from './irc-users';
import { type StashbotOutcome, stashbotSal } from './stashbot-sal';
import { ToggleProxy } from './toggle-proxy';
import { bundleWorker, type LoadedWorker, type WorkerBundle } from './worker-bundle';
import { sandboxEnv, stopWorker } from './worker-process';

/** The SAL channel (stashbot's, with the project in the message). */
export const SAL = '#wikimedia-cloud-feed';
/** Where people type commands. */
export const OPS = '#deckhand-ops';

/** One line the listener saw in the SAL channel, and what stashbot does with it. */
export interface SalSeen {
  at: number;
  raw: string;
  outcome: StashbotOutcome;
}

/** The running rig. */
export interface SalRig {
  network: TestIrcNetwork;
  proxy: ToggleProxy;
  sandbox: ToolhostSandbox;
  deckhand: IrcDeckhand;
  owner: Human & { account: string };
  /** The listener's lines from the bot in the SAL channel (across its reconnections). */
  sal: SalSeen[];
  /** Connects the listener again (after an ircd restart) and joins the SAL channel. */
  listen(): Promise<void>;
  /** The terminal chat in the web process; `prints` is what it printed. */
  shell: ShellAdapter;
  prints: string[];
  /** The worker running commands now; `nextWorker` starts the next (already loaded) one. */
  current(): LoadedWorker;
  nextWorker(): Promise<void>;
  close(): Promise<void>;
}

/** Starts everything; the listener is in the SAL channel before the bot speaks there. */
export async function startSalRig(): Promise<SalRig> {
  const network = await startTestIrcNetwork();
  const sandbox = await startToolhostSandbox({ stepMs: 20 });
  const bundle: WorkerBundle = await bundleWorker();
  const proxy = await ToggleProxy.start(network.port);
  proxy.down = false;
  const owner = await identifiedHuman(network, 'ada');
  const sal: SalSeen[] = [];
  let listener: Human | undefined;
  const listen = async () => {
    listener = await connectHuman(network, { nick: 'stashbot' });
    listener.client.on(
      'privmsg',
      (e: { nick: string; ident: string; hostname: string; target: string; message: string }) => {
        if (e.target.toLowerCase() !== SAL || !e.nick.startsWith(deckhand?.account ?? '\0')) return;
        const line = {
          channel: e.target,
          nick: e.nick,
          userHost: `${e.ident}@${e.hostname}`,
          text: e.message,
        };
        const outcome = stashbotSal({ ...line, projects: new Set(['tools.mytool', 'tools.demo']) });
        sal.push({
          at: Date.now(),
          raw: `:${e.nick}!${line.userHost} PRIVMSG ${e.target} :${e.message}`,
          outcome,
        });
      },
    );
    await listener.join(SAL);
  };
  let deckhand: IrcDeckhand | undefined;
  await listen();
  const env = {
    ...sandboxEnv(sandbox),
    SECRET_KEY: 'f'.repeat(64),
    QUEUE_LOCK_MS: '1000',
    WATCH_POLL_MS: '100',
    SAL_CHANNEL: SAL,
    SAL_DEFAULT: 'on',
    ADMINS: 'shell:operator',
    TOOL_MAINTAINERS: `mytool=irc:${owner.account},demo=irc:${owner.account}`,
  };
  deckhand = await startIrcDeckhand(network, {
    channels: [OPS],
    role: 'web',
    sandbox: false,
    env: { ...env, IRC_SERVER: `127.0.0.1:${proxy.port}` },
  });
  await owner.join(OPS);
  const c = deckhand.config;
  const workerEnv = {
    ...env,
    REDIS_URL: c.REDIS_URL as string,
    REDIS_KEY_PREFIX: c.REDIS_KEY_PREFIX,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: c.PUBLIC_URL as string,
    IRC_SERVER: `127.0.0.1:${proxy.port}`,
    IRC_TLS: 'false',
    IRC_NICK: c.IRC_NICK,
  };
  const children: ChildProcess[] = [];
  const load = () =>
    bundle.load(workerEnv).then((w) => {
      children.push(w.child);
      return w;
    });
  let upcoming = [load(), load()];
  let current: LoadedWorker | undefined;
  const nextWorker = async () => {
    const loaded = (await upcoming.shift()) as LoadedWorker;
    upcoming = [...upcoming, load()];
    await loaded.go();
    current = loaded;
  };
  await nextWorker();
  const prints: string[] = [];
  const shell = new ShellAdapter({
    runner: deckhand.app.runner as never,
    watches: deckhand.app.services.watches,
    input: new PassThrough(),
    output: new Writable({
      write(chunk, _encoding, done) {
        prints.push(String(chunk));
        done();
      },
    }),
    interactive: false,
    userName: 'operator',
    filesDir: join(c.DATA_DIR, 'files'),
  });
  deckhand.app.messengers.register('shell', shell);
  const started = deckhand;
  return {
    network,
    proxy,
    sandbox,
    deckhand: started,
    owner,
    sal,
    listen,
    shell,
    prints,
    current: () => current as LoadedWorker,
    nextWorker,
    async close() {
      for (const child of children) await stopWorker(child, 'SIGKILL');
      await listener?.quit().catch(() => undefined);
      await owner.quit().catch(() => undefined);
      await started.close();
      await proxy.close();
      await sandbox.close();
      bundle.remove();
      await network.stop();
    },
  };
}
