/**
 * Who wrote a line: the services account, never the nick (anyone may take a nick its owner left).
 * With `account-tag` the server stamps each message with its sender's account, and that alone is
 * used. Without it, accounts are followed per nick from `extended-join`, `account-notify` and a WHOX
 * query on joining — forgotten when the nick quits or changes, so a later holder of the nick is
 * never taken for the account.
 */
import type { Client } from 'irc-framework';

/** Accounts by nick, for servers without `account-tag`. */
export class AccountTracker {
  private readonly byNick = new Map<string, string>();

  constructor(private readonly client: Client) {
    const key = (nick: string) => nick.toLowerCase();
    const set = (nick: string, account: unknown) => {
      if (typeof account === 'string' && account && account !== '*' && account !== '0')
        this.byNick.set(key(nick), account);
      else this.byNick.delete(key(nick));
    };
    client.on('join', (e: { nick: string; account?: unknown; channel: string }) => {
      if ('account' in e) set(e.nick, e.account);
      if (e.nick === client.user.nick) client.who(e.channel);
    });
    client.on('account', (e: { nick: string; account: unknown }) => set(e.nick, e.account));
    client.on('wholist', (e: { users: { nick: string; account?: unknown }[] }) => {
      for (const user of e.users ?? []) if ('account' in user) set(user.nick, user.account);
    });
    client.on('quit', (e: { nick: string }) => this.byNick.delete(key(e.nick)));
    client.on('nick', (e: { nick: string; new_nick: string }) => {
      const account = this.byNick.get(key(e.nick));
      this.byNick.delete(key(e.nick));
      if (account) this.byNick.set(key(e.new_nick), account);
    });
    client.on('socket close', () => this.byNick.clear());
  }

  /**
   * The account of a message's sender: the message's `account` tag when the server sends tags (no tag:
   * not identified), the followed account otherwise.
   */
  accountOf(event: { nick: string; tags?: Record<string, string> }): string | undefined {
    if (this.client.network.cap.isEnabled('account-tag')) return event.tags?.account || undefined;
    return this.byNick.get(event.nick.toLowerCase());
  }
}
