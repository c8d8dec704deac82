/**
 * How the toolhost client authenticates per tool: client certificate → internal server (mTLS, every
 * operation); deploy token only → external server (deployment create/show, `?token=`), everything
 * else failing fast with a message naming TOOLHOST_CERT_DIR; neither → a message naming the config.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { untrustedClientCert } from '@deckhand/sandbox/toolhost/certs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { PermissionDenied, UpstreamError, UsageError } from '../../src/core/errors';
import { ToolhostAccessError, type ToolhostClient, ToolhostClientFactory } from '../../src/services/toolhost';

let sandbox: ToolhostSandbox;
let dir: string;
const factories: ToolhostClientFactory[] = [];

function make(options: ConstructorParameters<typeof ToolhostClientFactory>[0]): ToolhostClientFactory {
  const factory = new ToolhostClientFactory({ retries: 0, timeoutMs: 5_000, ...options });
  factories.push(factory);
  return factory;
}

beforeAll(async () => {
  sandbox = await startToolhostSandbox({ stepMs: 20 });
  dir = mkdtempSync(join(tmpdir(), 'deckhand-toolhost-'));
});

afterAll(async () => {
  await Promise.all(factories.map((f) => f.close()));
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function accessError(run: () => Promise<unknown>): Promise<ToolhostAccessError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolhostAccessError);
  expect(error).toBeInstanceOf(PermissionDenied);
  return error as ToolhostAccessError;
}

describe('a tool with only a deploy token (external server)', () => {
  let client: ToolhostClient;

  beforeAll(() => {
    const token = sandbox.deployTokenFor('mytool')!;
    client = make({ externalUrl: sandbox.externalUrl, deployTokens: { mytool: token } }).forTool('mytool');
  });

  it('creates a deployment and shows it', async () => {
    expect(client.authMode).toBe('token');
    expect(client.hasCertificate).toBe(false);
    const created = await client.components.createDeployment({ description: 'from a token' });
    expect(created.description).toBe('from a token');
    const shown = await client.components.showDeployment(created.deploy_id);
    expect(shown.deploy_id).toBe(created.deploy_id);
    expect(client.takeWarnings()).toEqual(['You are using a beta feature of Toolforge.']);
  });

  it.each([
    ['builds.list', (c: ToolhostClient) => c.builds.list(), 'list builds'],
    [
      'components.getConfig',
      (c: ToolhostClient) => c.components.getConfig(),
      'show the component configuration',
    ],
    [
      'components.latestDeployment',
      (c: ToolhostClient) => c.components.latestDeployment(),
      'show the latest',
    ],
    ['components.listDeployments', (c: ToolhostClient) => c.components.listDeployments(), 'list deployments'],
    ['components.cancelDeployment', (c: ToolhostClient) => c.components.cancelDeployment('x'), 'cancel'],
    ['components.getDeployToken', (c: ToolhostClient) => c.components.getDeployToken(), 'deploy token'],
    ['jobs.restart', (c: ToolhostClient) => c.jobs.restart('web'), 'restart a job'],
    ['envvars.list', (c: ToolhostClient) => c.envvars.list(), 'list environment variables'],
    ['logs.jobLogs', (c: ToolhostClient) => c.logs.jobLogs('web'), 'read job logs'],
  ])('fails fast on %s, naming the certificate it needs', async (_name, call, action) => {
    const error = await accessError(() => call(client));
    expect(error.problem).toBe('certificate-required');
    expect(error.message).toContain(action);
    expect(error.message).toContain("needs the tool's client certificate");
    expect(error.hint).toContain('TOOLHOST_CERT_DIR/mytool/');
  });

  it('fails fast on streams too, without any request', async () => {
    // A server that does not exist: a request would be an UnreachableError, not an access error.
    const offline = make({ externalUrl: 'http://127.0.0.1:9', deployTokens: { mytool: 'x' } }).forTool(
      'mytool',
    );
    await accessError(async () => {
      for await (const _ of offline.builds.logs('mytool-buildpacks-pipelinerun-x')) break;
    });
    await accessError(async () => {
      for await (const _ of offline.jobs.logs('web')) break;
    });
    await accessError(async () => {
      for await (const _ of offline.logs.stream('web')) break;
    });
  });

  it('refuses a wrong or expired token with the service message, never echoing the token', async () => {
    const wrong = '00000000-0000-4000-8000-000000000000';
    const bad = make({ externalUrl: sandbox.externalUrl }).forTool('mytool', { deployToken: wrong });
    const error = await bad.components.createDeployment().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 401 });
    expect((error as Error).message).toContain('The deploy token for tool mytool was refused');
    expect((error as Error).message).toContain('does not match');
    expect((error as Error).message).not.toContain(wrong);
  });

  it('takes a per-call token (the user’s own) for a tool without a bot-wide one', async () => {
    const cert = make({ internalUrl: sandbox.internalUrl, ca: sandbox.ca, certificates: certs() });
    const { token } = await cert.forTool('demo').components.createDeployToken();
    const external = make({ externalUrl: sandbox.externalUrl });
    expect(external.authModeFor('demo')).toBeUndefined();
    const demo = external.forTool('demo', { deployToken: token });
    const created = await demo.components.createDeployment();
    expect((await demo.components.showDeployment(created.deploy_id)).deploy_id).toBe(created.deploy_id);
    sandbox.controls.expireDeployToken('demo');
    await expect(demo.components.showDeployment(created.deploy_id)).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('has expired'),
    });
  });
});

function certs() {
  return { mytool: sandbox.certFor('mytool'), demo: sandbox.certFor('demo') };
}

describe('a tool with a client certificate (internal server, mTLS)', () => {
  it('reads certificates from TOOLHOST_CERT_DIR and the CA from TOOLHOST_CA_FILE', async () => {
    const toolDir = join(dir, 'mytool');
    mkdirSync(toolDir, { recursive: true });
    writeFileSync(join(toolDir, 'client.crt'), sandbox.certFor('mytool').cert);
    writeFileSync(join(toolDir, 'client.key'), sandbox.certFor('mytool').key);
    writeFileSync(join(dir, 'ca.pem'), sandbox.ca);
    const config = loadConfig({
      TOOLHOST_URL: sandbox.externalUrl,
      TOOLHOST_INTERNAL_URL: sandbox.internalUrl,
      TOOLHOST_CERT_DIR: dir,
      TOOLHOST_CA_FILE: join(dir, 'ca.pem'),
      TOOLHOST_DEPLOY_TOKENS: `mytool=${sandbox.deployTokenFor('mytool')}`,
      TOOLHOST_TIMEOUT_MS: '5000',
    });
    const factory = ToolhostClientFactory.fromConfig(config, { retries: 0 });
    factories.push(factory);
    const client = factory.forTool('mytool');
    expect(client.authMode).toBe('certificate');
    expect((await client.builds.list()).length).toBeGreaterThan(0);
    expect(factory.forTool('mytool', { deployToken: 'ignored' }).authMode).toBe('certificate');
  });

  it("answers 403 for a certificate of another tool, with the gateway's message", async () => {
    const swapped = make({
      internalUrl: sandbox.internalUrl,
      ca: sandbox.ca,
      certificates: { mytool: sandbox.certFor('demo') },
    }).forTool('mytool');
    await expect(swapped.jobs.quotas()).rejects.toMatchObject({
      status: 403,
      message: "Tool 'demo' is not allowed to access the resources of tool 'mytool'",
    });
  });

  it('answers 401 for a certificate the gateway does not trust', async () => {
    const rogue = make({
      internalUrl: sandbox.internalUrl,
      ca: sandbox.ca,
      certificates: { mytool: await untrustedClientCert('mytool') },
    }).forTool('mytool');
    await expect(rogue.builds.list()).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
    await expect(rogue.components.getConfig()).rejects.toMatchObject({ status: 401 });
  });
});

describe('missing configuration', () => {
  it('names what to set for a tool with neither certificate nor token', () => {
    const factory = make({ externalUrl: sandbox.externalUrl, internalUrl: sandbox.internalUrl });
    let error: unknown;
    try {
      factory.forTool('mytool');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolhostAccessError);
    expect(error).toMatchObject({ problem: 'no-credentials', code: 'permission' });
    expect((error as Error).message).toBe('Deckhand has no credentials for tool mytool.');
    expect((error as ToolhostAccessError).hint).toContain('TOOLHOST_CERT_DIR/mytool/client.crt');
    expect((error as ToolhostAccessError).hint).toContain('TOOLHOST_DEPLOY_TOKENS=mytool=<token>');
  });

  it('names the missing server URL', () => {
    expect(() => make({ certificates: certs() }).forTool('mytool')).toThrow(
      /TOOLHOST_INTERNAL_URL is not set/,
    );
    expect(() => make({ deployTokens: { mytool: 'x' } }).forTool('mytool')).toThrow(
      /TOOLHOST_URL is not set/,
    );
  });

  it('refuses something that is not a tool name', () => {
    expect(() => make({}).forTool('../etc')).toThrow(UsageError);
  });
});
