/**
 * People on the test IRC network: plain irc-framework clients that register and identify with
 * services (NickServ REGISTER, SASL PLAIN), join channels, talk, and record what they see.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'irc-framework';
import type { TestIrcNetwork } from './irc-network';
import { waitFor } from './wait';

/** One line a person saw. */
export interface Seen {
  type: 'privmsg' | 'notice' | 'action';
  nick: string;
  target: string;
  message: string;
  tags: Record<string, string>;
}

/** A connected person. */
export interface Human {
  nick: string;
  client: Client;
  /** Every message and notice they received (their own echoes excluded), oldest first. */
  seen: Seen[];
  /** Lines in `target` (a channel, or their private query with `from`) from `from`. */
  linesFrom(from: string, target?: string): string[];
  say(target: string, text: string): void;
  join(channel: string): Promise<void>;
  quit(): Promise<void>;
}

/** How a person connects. */
export interface HumanOptions {
  nick: string;
  /** Identify with SASL PLAIN as this account (registered beforehand). */
  account?: { name: string; password: string };
}

/** Connects a person; resolves once registered (and, with an account, logged in). */
export async function connectHuman(network: TestIrcNetwork, options: HumanOptions): Promise<Human> {
  const client = new Client();
  const seen: Seen[] = [];
  let registered = false;
  let loggedIn = !options.account;
  let failure: string | undefined;
  client.on('registered', () => {
    registered = true;
  });
  client.on('loggedin', () => {
    loggedIn = true;
  });
  client.on('sasl failed', (event: { reason: string }) => {
    failure = `SASL failed: ${event.reason}`;
  });
  const record = (type: Seen['type']) => (event: Record<string, unknown>) => {
    if (event.nick === client.user.nick) return;
    seen.push({
      type,
      nick: String(event.nick),
      target: String(event.target),
      message: String(event.message),
      tags: (event.tags as Record<string, string>) ?? {},
    });
  };
  client.on('privmsg', record('privmsg'));
  client.on('notice', record('notice'));
  client.on('action', record('action'));
  client.connect({
    host: network.host,
    port: network.port,
    nick: options.nick,
    username: options.nick.slice(0, 9),
    gecos: `test person ${options.nick}`,
    auto_reconnect: false,
    ...(options.account
      ? { account: { account: options.account.name, password: options.account.password } }
      : {}),
  });
  await waitFor(() => {
    if (failure) throw new Error(failure);
    return registered && loggedIn ? true : undefined;
  }, 15_000);
  const human: Human = {
    nick: client.user.nick,
    client,
    seen,
    linesFrom: (from, target) =>
      seen
        .filter(
          (s) => s.nick === from && (target === undefined || s.target.toLowerCase() === target.toLowerCase()),
        )
        .map((s) => s.message),
    say: (target, text) => client.say(target, text),
    async join(channel) {
      let joined = false;
      const onJoin = (event: { nick: string; channel: string }) => {
        if (event.nick === client.user.nick && event.channel.toLowerCase() === channel.toLowerCase())
          joined = true;
      };
      client.on('join', onJoin);
      client.join(channel);
      await waitFor(() => (joined ? true : undefined), 15_000);
      client.removeListener('join', onJoin);
    },
    async quit() {
      if (!client.connected) return;
      const closed = new Promise((resolve) => client.once('close', resolve));
      client.quit('bye');
      await closed;
    },
  };
  return human;
}

/** A fresh account name (NickServ accounts are nicks: ≤ 16 characters here). */
export function accountName(stem: string): string {
  return `${stem.slice(0, 8)}${randomBytes(3).toString('hex')}`;
}

/**
 * Registers a services account named `name` (NickServ REGISTER on a connection using that nick),
 * then disconnects. Resolves with its password.
 */
export async function registerAccount(network: TestIrcNetwork, name: string): Promise<string> {
  const password = randomBytes(9).toString('hex');
  const person = await connectHuman(network, { nick: name });
  person.say('NickServ', `REGISTER ${password} ${name}@example.org`);
  await waitFor(
    () => (person.linesFrom('NickServ').some((line) => /is now registered/i.test(line)) ? true : undefined),
    15_000,
  );
  await person.quit();
  return password;
}

/** Registers an account and connects a person identified to it with SASL PLAIN. */
export async function identifiedHuman(
  network: TestIrcNetwork,
  stem: string,
): Promise<Human & { account: string; password: string }> {
  const name = accountName(stem);
  const password = await registerAccount(network, name);
  const person = await connectHuman(network, { nick: name, account: { name, password } });
  return Object.assign(person, { account: name, password });
}
