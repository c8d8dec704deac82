/**
 * irc-framework's TCP/TLS transport, verifying the server's certificate against a CA of our choosing
 * (`IRC_TLS_CA`, for a network whose certificate is not signed by a public CA): the library's own
 * transport passes no `ca` to `tls.connect`. Everything after the socket is created is the library's.
 */
import tls from 'node:tls';
import NetTransport from 'irc-framework/src/transports/net.js';

/** `NetTransport.state` while connecting (irc-framework's SOCK_CONNECTING). */
const SOCK_CONNECTING = 1;

/** The transport: the library's, except that a TLS connection with `options.ca` verifies against it. */
export class CaTransport extends NetTransport {
  override connect(): void {
    const options = this.options as {
      tls?: boolean;
      ca?: string;
      host: string;
      port: number;
      encoding?: string;
      client_certificate?: { private_key: string; certificate: string };
    };
    if (!options.tls || !options.ca) {
      super.connect();
      return;
    }
    this.disposeSocket();
    this.requested_disconnect = false;
    this.incoming_buffer = Buffer.from('');
    if (!options.encoding || !this.setEncoding(options.encoding)) this.setEncoding('utf8');
    this.state = SOCK_CONNECTING;
    const isAddress = /^[\d.]+$|:/.test(options.host);
    this.socket = tls.connect({
      host: options.host,
      port: options.port,
      ca: options.ca,
      rejectUnauthorized: true,
      ...(isAddress ? {} : { servername: options.host }),
      ...(options.client_certificate
        ? { key: options.client_certificate.private_key, cert: options.client_certificate.certificate }
        : {}),
    });
    this._onSocketCreate(options, this.socket);
  }
}
