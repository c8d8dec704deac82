/**
 * `deckhand doctor`'s network lines for IRC: one short connection of its own (nick with `-dr`), which
 * shows whether the server can be reached over TLS, whether SASL was accepted, and whether every
 * configured channel and the Server Admin Log's channel can be joined. It quits at once; the running bot is not disturbed.
 */

import type { Config } from '../../src/config';
import { silentLogger } from '../../src/log';
import type { PlatformDoctor } from '../descriptor';
import { type CheckResult, credentialsFirst, fail, inert, ok } from '../doctor-kit';
import { channelsToJoin } from './feed';
import { IrcLink } from './link';

/** How long each step may take. */
const STEP_MS = 20_000;

/** One probe connection's findings. */
interface Probe {
  registered: boolean;
  account?: string;
  saslError?: string;
  joined: string[];
  refused: Map<string, string>;
  error?: string;
}

const probes = new WeakMap<Config, Promise<Probe>>();

async function probeOf(config: Config): Promise<Probe> {
  const nick = `${config.IRC_NICK.slice(0, 12)}-dr`;
  const found: Probe = { registered: false, joined: [], refused: new Map() };
  const link = new IrcLink({ ...config, IRC_NICK: nick }, silentLogger, {
    joinChannels: async () => channelsToJoin(config),
  });
  const client = link.client;
  client.on('loggedin', (e: { account: string }) => {
    found.account = e.account;
  });
  client.on('sasl failed', (e: { reason: string; message?: string }) => {
    found.saslError = e.message ? `${e.reason}: ${e.message}` : e.reason;
  });
  client.on('irc error', (e: { error: string; channel?: string; reason?: string }) => {
    if (e.channel) found.refused.set(e.channel.toLowerCase(), `${e.error}${e.reason ? `: ${e.reason}` : ''}`);
  });
  client.on('socket close', (error?: Error | string | false) => {
    if (error) found.error = typeof error === 'string' ? error : error.message;
  });
  const deadline = Date.now() + STEP_MS;
  link.start();
  const wanted = channelsToJoin(config).map((c) => c.toLowerCase());
  const done = () =>
    found.saslError !== undefined ||
    (found.error !== undefined && !link.connected) ||
    (link.connected && wanted.every((c) => link.joined.has(c) || found.refused.has(c)));
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  found.registered = link.connected;
  found.joined = wanted.filter((c) => link.joined.has(c));
  await link.stop();
  return found;
}

function probe(config: Config): Promise<Probe> {
  let found = probes.get(config);
  if (!found) {
    found = probeOf(config);
    probes.set(config, found);
  }
  return found;
}

/** Connects, and checks SASL. */
async function credentials(config: Config): Promise<CheckResult> {
  const label = 'IRC connection';
  const found = await probe(config);
  const sasl = Boolean(config.IRC_SASL_ACCOUNT || config.IRC_SASL_CERT);
  if (found.saslError) {
    return fail(
      label,
      `SASL was refused (${inert(found.saslError, [config.IRC_SASL_PASSWORD])}): check IRC_SASL_ACCOUNT and IRC_SASL_PASSWORD (or the certificate in IRC_SASL_CERT and NickServ CERT LIST); "capability_missing" means the network's services are down.`,
    );
  }
  if (!found.registered) {
    const why = found.error ? ` (${inert(found.error)})` : '';
    return fail(
      label,
      `could not connect to ${config.IRC_SERVER}${why}: check IRC_SERVER, IRC_TLS and the network.`,
    );
  }
  if (sasl && !found.account)
    return fail(label, 'connected, but SASL did not log in: check the SASL settings.');
  return ok(
    label,
    `${config.IRC_SERVER}${found.account ? `, SASL accepted as ${found.account}` : ', no SASL'}.`,
  );
}

/** Every configured channel joined, and the SAL channel. */
async function deliveries(config: Config, credentialsPassed: boolean): Promise<CheckResult> {
  const label = 'IRC channels';
  if (!credentialsPassed) return credentialsFirst(label);
  const found = await probe(config);
  const channels = channelsToJoin(config);
  const missing = channels.filter((c) => !found.joined.includes(c.toLowerCase()));
  const sal = `${config.SAL_CHANNEL} (the Server Admin Log's channel: lines only, no commands)`;
  const listed = config.IRC_CHANNELS.filter((c) => c.toLowerCase() !== config.SAL_CHANNEL.toLowerCase());
  if (missing.length === 0)
    return ok(
      label,
      `joined ${[...listed, sal].join(', ')}${listed.length ? '' : '; IRC_CHANNELS lists no other'}.`,
    );
  const reasons = missing.map(
    (c) =>
      `${c}${found.refused.get(c.toLowerCase()) ? ` (${inert(found.refused.get(c.toLowerCase()) ?? '')})` : ''}`,
  );
  return fail(
    label,
    `could not join ${reasons.join(', ')}: is the bot banned, or the channel invite-only or keyed?`,
  );
}

/** IRC's network checks. */
export const ircDoctor: PlatformDoctor = { credentials, deliveries };
