/**
 * IRC: one connection (irc-framework, TLS, SASL) in the web process, lines queued by any process,
 * cards as short lines with a web view, buttons as numbered choices. See docs/irc.md.
 */
import type { AdapterContext, PlatformAdapter } from '../types';
import { IrcAdapter } from './adapter';

/** Creates the IRC adapter when `IRC_SERVER` is set; `undefined` otherwise. */
export function createIrcAdapter(context: AdapterContext): PlatformAdapter | undefined {
  if (!context.config.IRC_SERVER) return undefined;
  return new IrcAdapter(context);
}

export { IrcAdapter, networkOf } from './adapter';
export { IrcAdminLogOutbox } from './admin-log';
