/**
 * The part of irc-framework (4.x, which ships no types) Deckhand uses: the client, its connect
 * options, and the base TCP/TLS transport (subclassed to pass a CA for TLS).
 */
declare module 'irc-framework' {
  import { EventEmitter } from 'node:events';

  /** Options of `Client.connect` (irc-framework docs/clientapi.md). */
  export interface ConnectOptions {
    host: string;
    port: number;
    nick: string;
    username?: string;
    gecos?: string;
    tls?: boolean;
    rejectUnauthorized?: boolean;
    /** Extra option read by Deckhand's transport: the CA to verify the server's certificate with. */
    ca?: string;
    client_certificate?: { private_key: string; certificate: string };
    account?: { account: string; password: string };
    sasl_mechanism?: 'PLAIN' | 'EXTERNAL';
    sasl_disconnect_on_fail?: boolean;
    auto_reconnect?: boolean;
    auto_reconnect_max_wait?: number;
    auto_reconnect_max_retries?: number;
    ping_interval?: number;
    ping_timeout?: number;
    enable_echomessage?: boolean;
    message_max_length?: number;
    transport?: unknown;
    version?: string | null;
  }

  /** The client's network view (ISUPPORT, capabilities). */
  export interface NetworkInfo {
    name: string;
    cap: { enabled: string[]; available: Map<string, string>; isEnabled(cap: string): boolean };
    supports(feature: string): unknown;
  }

  export class Client extends EventEmitter {
    constructor(options?: Partial<ConnectOptions>);
    options: ConnectOptions;
    connected: boolean;
    user: { nick: string; username: string; host: string; away: boolean; modes: Set<string> };
    network: NetworkInfo;
    connection: { connected: boolean; transport: unknown; end(message?: string): void };
    connect(options?: Partial<ConnectOptions>): void;
    quit(message?: string): void;
    raw(...args: string[]): void;
    say(target: string, message: string): void;
    notice(target: string, message: string): void;
    join(channel: string, key?: string): void;
    part(channel: string, message?: string): void;
    changeNick(nick: string): void;
    who(target: string, cb?: (event: unknown) => void): void;
    whois(nick: string, cb?: (event: unknown) => void): void;
  }

  export const Helpers: unknown;
}

declare module 'irc-framework/src/transports/net.js' {
  import { EventEmitter } from 'node:events';

  /** irc-framework's TCP/TLS transport. */
  export default class NetTransport extends EventEmitter {
    constructor(options: Record<string, unknown>);
    options: Record<string, unknown>;
    socket: unknown;
    state: number;
    requested_disconnect: boolean;
    incoming_buffer: Buffer;
    connect(): void;
    disposeSocket(): void;
    setEncoding(encoding: string): boolean;
    _onSocketCreate(options: Record<string, unknown>, socket: unknown): void;
  }
}
