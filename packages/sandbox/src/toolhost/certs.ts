/**
 * Certificates of the sandbox gateway: one CA, a server certificate for 127.0.0.1/localhost, and a
 * client certificate per tool whose CN is the tool name (like the tool's `~/.toolskube/client.crt`).
 * EC P-256 keys keep generation at a few ms each; everything is cached per process.
 */
import { generate } from 'selfsigned';

/** A PEM certificate with its private key. */
export interface CertPair {
  cert: string;
  key: string;
}

/** The CA, the server pair, and a way to get a client pair per tool. */
export interface SandboxCerts {
  /** PEM of the CA every client and server certificate chains to. */
  ca: string;
  /** Server certificate (SAN 127.0.0.1, ::1, localhost) for the internal listener. */
  server: CertPair;
  /** Client certificate of `tool` (CN = tool), generated on first request and cached. */
  clientFor(tool: string): Promise<CertPair>;
}

const BASE = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' } as const;

let cached: Promise<{ ca: CertPair; server: CertPair }> | undefined;
const clients = new Map<string, Promise<CertPair>>();

async function issue(
  cn: string,
  ca: CertPair | undefined,
  extensions: NonNullable<NonNullable<Parameters<typeof generate>[1]>['extensions']>,
): Promise<CertPair> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: cn }], {
    ...BASE,
    notBeforeDate,
    notAfterDate,
    extensions,
    ...(ca ? { ca } : {}),
  });
  return { cert: pems.cert, key: pems.private };
}

async function createRoot(): Promise<{ ca: CertPair; server: CertPair }> {
  const ca = await issue('Deckhand toolhost sandbox CA', undefined, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
  ]);
  const server = await issue('localhost', ca, [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
      ],
    },
  ]);
  return { ca, server };
}

/** The sandbox certificates (same CA for every sandbox in this process). */
export async function sandboxCerts(): Promise<SandboxCerts> {
  cached ??= createRoot();
  const { ca, server } = await cached;
  return {
    ca: ca.cert,
    server,
    clientFor(tool: string): Promise<CertPair> {
      let pair = clients.get(tool);
      if (!pair) {
        pair = issue(tool, ca, [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true },
          { name: 'extKeyUsage', clientAuth: true },
        ]);
        clients.set(tool, pair);
      }
      return pair;
    },
  };
}

/**
 * A client certificate for `cn` signed by a throwaway CA the sandbox does not trust, to test that
 * the internal listener refuses it.
 */
export async function untrustedClientCert(cn: string): Promise<CertPair> {
  const rogue = await issue('Untrusted CA', undefined, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, digitalSignature: true, critical: true },
  ]);
  return issue(cn, rogue, [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
}
